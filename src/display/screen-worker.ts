/**
 * Worker-thread host of the screen copy: parsing every byte the agent prints costs ~20 ms of CPU per
 * MB (terminal.md §4), so it runs here, on another core, never on the wrapper's output path. Messages
 * are handled in order, so a frame request sees every chunk fed before it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ScreenMirror, type MirrorInit } from './screen-mirror.js';
import type { MirrorRequest, MirrorReply } from './screen.js';

const mirror = new ScreenMirror(workerData as MirrorInit);
const port = parentPort;
if (port) {
  port.on('message', (msg: MirrorRequest) => {
    switch (msg.type) {
      case 'feed':
        mirror.feed(msg.data);
        break;
      case 'lose':
        mirror.lose();
        break;
      case 'resize':
        mirror.resize(msg.cols, msg.rows);
        break;
      case 'frame':
      case 'cover':
      case 'repaint':
        mirror.whenCaughtUp(() => {
          const result = msg.type === 'frame' ? mirror.frame(msg.lines, msg.position) : msg.type === 'cover' ? mirror.cover(msg.rows, msg.widths) : mirror.repaint();
          const reply: MirrorReply = { type: 'reply', id: msg.id, result, rebuilt: mirror.rebuilt };
          mirror.rebuilt = false;
          port.postMessage(reply);
        });
        break;
      case 'dispose':
        mirror.dispose();
        port.close();
        break;
      default:
        msg satisfies never;
    }
  });
}
