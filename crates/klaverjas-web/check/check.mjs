// Drives the web build in headless Chromium as a phone: 412x915 CSS px at
// DPR 2.625, touch. Serves SITE on 127.0.0.1, photographs into OUT, and
// fails on a JS error or a blank canvas.
//   node check.mjs SITE OUT
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import puppeteer from "puppeteer-core";

const [site, out] = process.argv.slice(2);
fs.mkdirSync(out, { recursive: true });
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".png": "image/png",
  ".webmanifest": "application/manifest+json", ".json": "application/json" };
const server = http.createServer((req, res) => {
  const file = path.join(site, decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/\/$/, "/index.html"));
  fs.readFile(file, (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { "content-type": types[path.extname(file)] || "application/octet-stream" });
    res.end(data);
  });
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--ignore-gpu-blocklist"],
});
const page = await browser.newPage();
// PHONE=0 looks as a desktop of 1280x720 with a mouse instead.
if (process.env.PHONE === "0") await page.setViewport({ width: 1280, height: 720 });
else await page.emulate({ viewport: { width: 412, height: 915, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true },
  userAgent: "Mozilla/5.0 (Linux; Android 14) Mobile" });
const errors = [];
page.on("pageerror", (e) => errors.push(String(e)));
page.on("console", (m) => {
  if (m.type() === "error") errors.push(m.text());
  else if (m.text().includes("zoom")) console.log("page:", m.text().replace(/%c/g, "").slice(0, 160));
});

// How many colours the page shows, read from its screenshot (a WebGL
// canvas cannot be read back once shown): one is a blank felt.
async function drawn(name) {
  const file = path.join(out, name + ".png");
  const shot = await page.screenshot({ path: file, encoding: "base64" });
  const colours = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const probe = document.createElement("canvas");
    probe.width = 96; probe.height = 96;
    const g = probe.getContext("2d");
    g.drawImage(img, 0, 0, 96, 96);
    const d = g.getImageData(0, 0, 96, 96).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4) seen.add((d[i] >> 4) << 8 | (d[i + 1] >> 4) << 4 | (d[i + 2] >> 4));
    return seen.size;
  }, shot);
  console.log(`${name}: ${colours} colours, ${file}`);
  return colours;
}

const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
let failed = false;
const start = Date.now();
await page.goto(base, { waitUntil: "load" });
// The title: the first start's question, on the felt.
let colours = 0;
while (Date.now() - start < 120000 && (colours = await drawn("01-title")) < 3) await wait(2000);
console.log(`title after ${((Date.now() - start) / 1000).toFixed(1)} s`);
if (colours < 3) { console.error("the canvas stayed blank"); failed = true; }

// A demo deal with its seed.
await page.goto(base + "?demo&seed=7", { waitUntil: "load" });
await wait(Number(process.env.DEMO_WAIT || 60000));
if ((await drawn("02-demo")) < 3) failed = true;

for (const e of errors) console.error("JS:", e.split("\n")[0]);
await browser.close();
server.close();
process.exit(failed || errors.length ? 1 : 0);
