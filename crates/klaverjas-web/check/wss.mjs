// Reaches a table server through TLS, as a page served over HTTPS must
// (wss://): hosts a table, expects its chair and token back, and plays.
//   node wss.mjs wss://127.0.0.1:8443/ws CA.pem
import fs from "node:fs";
import WebSocket from "ws";

const [url, ca] = process.argv.slice(2);
const socket = new WebSocket(url, { ca: fs.readFileSync(ca) });
const timer = setTimeout(() => { console.error("FAIL: no answer through TLS in 10 s"); process.exit(1); }, 10000);
socket.on("error", (e) => { console.error("FAIL:", e.message); process.exit(1); });
socket.on("open", () => socket.send(JSON.stringify({
  type: "host", protocol: 6, name: "Anna",
  setup: { preset: "Classic", set: "", bots: "Heuristic", grace: 30 },
})));
// Then starts it and plays South's first legal action at each turn until
// the table's state is longer than one of the server's frames (1 kB): a
// message sent in several frames must come through the proxy whole.
let seated = null;
socket.on("message", (data) => {
  const message = JSON.parse(String(data));
  if (message.type === "seated") {
    if (!message.token || !/^[0-9A-Z]{6}$/.test(message.code)) { console.error("FAIL: a chair without a token or code"); process.exit(1); }
    seated = message;
    socket.send(JSON.stringify({ type: "start" }));
  }
  if (message.type !== "table" || !seated) return;
  const view = message.view;
  if (String(data).length > 1100) {
    console.log(`through TLS: table ${seated.code}, chair ${seated.seat}, a token of ${seated.token.length * 4} bits; after step ${message.step} the table's state, ${String(data).length} bytes in frames of 1 kB, read whole`);
    process.exit(0);
  }
  if (view.to_act === view.seat && view.legal.length) socket.send(JSON.stringify({ type: "act", action: view.legal[0] }));
});
