// The bots' Web Worker: the page sends [id, job] (JSON), the bots work it
// out here, off the page's one thread, and post [id, "answer", answer] (or
// [id, "error", words]); a review posts [id, "progress", done] as it goes.
// Jobs are answered in the order they came: a bot's next decision follows
// its last.
import init, { answer } from "./klaverjas_worker.js";

const ready = init();

self.onmessage = async (event) => {
  await ready;
  const [id, job] = event.data;
  try {
    postMessage([id, "answer", answer(job, (done) => postMessage([id, "progress", done]))]);
  } catch (e) {
    postMessage([id, "error", String(e)]);
  }
};
