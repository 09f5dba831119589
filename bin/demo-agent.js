#!/usr/bin/env node
// The scripted agent `recapwrap demo` runs (see src/demo/scripted-agent.ts). An executable of its own,
// so recapwrap's pin flags (`--session <file>`, as for pi) go to the agent and not to node.
// CommonJS like everything in bin/ (see bin/package.json); the agent itself is an ES module.
'use strict';

import('../dist/demo/scripted-agent.js').then((agent) => agent.main());
