// Reaches a table server through TLS, as a page served over HTTPS must
// (wss://): hosts a table and expects its chair and token back.
//   node wss.mjs wss://127.0.0.1:8443/ws CA.pem
import fs from "node:fs";
import WebSocket from "ws";

const [url, ca] = process.argv.slice(2);
const socket = new WebSocket(url, { ca: fs.readFileSync(ca) });
const timer = setTimeout(() => { console.error("FAIL: no answer through TLS in 10 s"); process.exit(1); }, 10000);
socket.on("error", (e) => { console.error("FAIL:", e.message); process.exit(1); });
socket.on("open", () => socket.send(JSON.stringify({
  type: "host", protocol: 1, name: "Anna",
  setup: { preset: "Classic", set: "", bots: "Heuristic", grace: 30 },
})));
socket.on("message", (data) => {
  const message = JSON.parse(String(data));
  if (message.type !== "seated") return;
  if (!message.token || !/^[0-9A-Z]{6}$/.test(message.code)) { console.error("FAIL: a chair without a token or code"); process.exit(1); }
  console.log(`through TLS: table ${message.code}, chair ${message.seat}, a token of ${message.token.length * 4} bits`);
  clearTimeout(timer);
  socket.close();
});
