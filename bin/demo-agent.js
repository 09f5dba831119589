#!/usr/bin/env node
// The scripted agent `recapwrap demo` runs (see src/demo/scripted-agent.ts). An executable of its own,
// so recapwrap's pin flags (`--session <file>`, as for pi) go to the agent and not to node.
// CommonJS like everything in bin/ (see bin/package.json) and like the build it loads.
'use strict';

require('../dist/demo/scripted-agent.cjs').main();
