// Drives the web build in headless Chromium as a phone: 412x915 CSS px at
// DPR 2.625, touch. Serves SITE on 127.0.0.1, photographs each step into
// OUT, prints what it measured, and fails on a JS error, a blank canvas or
// a step that does not happen:
//   1. the start, navigation to the title's first frame: 5 cold (a new
//      profile each) and 5 warm (the service worker's copy), medians;
//   2. a demo deal with the expert bots to its end (?demo&seed=7), with
//      the frame figures the game writes at its end (--stats);
//   3. a real deal: the first start's Classic, the title's quick start,
//      a card of the hand played by a touch, and the page closed within
//      100 ms of the touch: reopened, the card is played;
//   4. a reload: the game goes on where it was;
//   5. the server stopped: a reload still starts the game, from the
//      service worker.
//   node check.mjs SITE OUT
// PHONE=0 looks as a desktop of 1280x720 with a mouse instead (steps 1, 2).
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import puppeteer from "puppeteer-core";

const [site, out] = process.argv.slice(2);
fs.mkdirSync(out, { recursive: true });
const phone = process.env.PHONE !== "0";
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".png": "image/png",
  ".webmanifest": "application/manifest+json", ".json": "application/json" };
const sockets = new Set();
const server = http.createServer((req, res) => {
  const file = path.join(site, decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/\/$/, "/index.html"));
  fs.readFile(file, (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { "content-type": types[path.extname(file)] || "application/octet-stream" });
    res.end(data);
  });
});
server.on("connection", (s) => { sockets.add(s); s.on("close", () => sockets.delete(s)); });
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--ignore-gpu-blocklist",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const errors = [];
const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let failed = false;
function fail(why) { console.error("FAIL:", why); failed = true; }

/// A page of `context` looking as a phone, whose console lines are kept
/// (each with the time it came) and whose errors fail the check.
async function open(context) {
  const page = await context.newPage();
  if (phone) {
    await page.emulate({ viewport: { width: 412, height: 915, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true },
      userAgent: "Mozilla/5.0 (Linux; Android 14) Mobile" });
  } else {
    await page.setViewport({ width: 1280, height: 720 });
  }
  page.lines = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    const text = m.text().replace(/%c/g, "");
    page.lines.push({ text, at: Date.now() });
    if (m.type() === "error") errors.push(text);
    else if (/zoom|worker|--stats/.test(text)) console.log("page:", text.replace(/color: [^ ]*/g, "").slice(0, 200));
  });
  return page;
}

/// The first console line matching `re` from `since` on, waited for.
async function line(page, re, since, timeout) {
  const end = Date.now() + timeout;
  for (;;) {
    const hit = page.lines.find((l) => l.at >= since && re.test(l.text));
    if (hit) return hit;
    if (Date.now() > end) return null;
    await wait(50);
  }
}

// How many colours the page shows, read from its screenshot (a WebGL
// canvas cannot be read back once shown): one is a blank felt.
async function drawn(page, name) {
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
  if (colours < 3) fail(`${name}: the canvas is blank`);
  return colours;
}

/// Navigates and times the start: navigation to the title's first frame.
async function start(page, url) {
  const since = Date.now();
  await page.goto(url, { waitUntil: "load" });
  const up = await line(page, /the title is up/, since, 120000);
  return up ? up.at - since : null;
}

// 1. The start, cold and warm.
const cold = [];
let context;
for (let i = 0; i < 5; i++) {
  if (context) await context.close();
  context = await browser.createBrowserContext();
  const ms = await start(await open(context), base);
  if (ms === null) fail("the title never came");
  else cold.push(ms);
}
// The last context keeps its service worker: wait until it holds the game.
let page = (await context.pages())[0];
await page.evaluate(async () => { await navigator.serviceWorker.ready; });
await wait(3000);
const warm = [];
for (let i = 0; i < 5; i++) {
  const ms = await start(page, base);
  if (ms === null) fail("the title never came from the service worker's copy");
  else warm.push(ms);
}
console.log(`start to the title: cold median ${median(cold)} ms (${cold.join(", ")}), ` +
  `warm median ${median(warm)} ms (${warm.join(", ")})`);
await drawn(page, "01-first-start");

// 2. A demo deal to its end, with the frame figures.
{
  const since = Date.now();
  await page.goto(base + "?demo&seed=7&bots=expert&quit-after-deals=1&stats=page", { waitUntil: "load" });
  await wait(8000);
  await drawn(page, "02-demo-trick");
  const stats = await line(page, /--stats \{/, since, Number(process.env.DEMO_WAIT || 300000));
  if (!stats) fail("the demo deal did not end");
  else {
    const figures = JSON.parse(stats.text.slice(stats.text.indexOf("{"), stats.text.lastIndexOf("}") + 1));
    console.log(`demo deal: ${((stats.at - since) / 1000).toFixed(1)} s, frames ${figures.frames}, ` +
      `longest ${figures.longest_frame_ms} ms, p99 ${figures.p99_frame_ms} ms`);
  }
  await drawn(page, "03-demo-end");
}

if (phone) {
  // 3. A real deal, a card played by a touch, the page closed at once.
  const savedGame = (p) => p.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith("save.ron"));
    return key ? localStorage.getItem(key) : null;
  });
  const tap = async (p, x, y) => { await p.touchscreen.tap(x, y); await wait(600); };
  await page.goto(base, { waitUntil: "load" });
  await line(page, /the title is up/, 0, 60000);
  await wait(1500);
  await drawn(page, "04-first-start");
  await tap(page, ...(process.env.CLASSIC || "109,470").split(",").map(Number));
  await drawn(page, "05-title");
  await tap(page, ...(process.env.QUICK || "206,390").split(",").map(Number));
  // Until the save stands still, the bots are bidding or playing; then it
  // is the player's turn. A card of the hand is tried from left to right;
  // where none is taken it is a bid, and Pass is touched.
  const hand = [70, 120, 170, 220, 270, 320].map((x) => [x, 860]);
  const pass = (process.env.PASS || "206,560").split(",").map(Number);
  let played = null;
  for (let round = 0; round < 12 && !played; round++) {
    let before = await savedGame(page);
    for (let still = 0; still < 3; still++) {
      await wait(1000);
      const now = await savedGame(page);
      if (now !== before) { before = now; still = -1; }
    }
    if (round === 0) await drawn(page, "06-table");
    for (const [x, y] of hand) {
      await page.touchscreen.tap(x, y);
      await wait(90);
      if ((await savedGame(page)) !== before) {
        // Closed within 100 ms of the touch.
        await page.close();
        played = { x, y, before };
        break;
      }
      await wait(900);
      if ((await savedGame(page)) !== before) {
        played = { x, y, before, late: true };
        break;
      }
    }
    if (!played) await tap(page, ...pass);
  }
  if (!played) fail("no card of the hand could be played by a touch");
  else if (played.late) fail("a touch played a card, but its save came more than 100 ms after");
  else {
    page = await open(context);
    await page.goto(base, { waitUntil: "load" });
    await wait(4000);
    const after = await savedGame(page);
    const count = (s) => (s.match(/Play\(/g) || []).length;
    console.log(`a card touched at (${played.x}, ${played.y}), the page closed: ` +
      `${count(played.before)} cards in the save before, ${count(after)} after reopening`);
    if (count(after) <= count(played.before)) fail("the card touched was lost with the page");
    await drawn(page, "07-reopened");
    // 4. A reload goes on where it was.
    const kept = await savedGame(page);
    await page.reload({ waitUntil: "load" });
    await wait(4000);
    await drawn(page, "08-reloaded");
    if ((await savedGame(page)) !== kept) console.log("the game moved on after the reload (bots played)");
    // 5. The server stopped: the service worker starts the game.
    server.close();
    for (const s of sockets) s.destroy();
    const since = Date.now();
    await page.reload({ waitUntil: "load" });
    if (!(await line(page, /the title is up|zoom/, since, 60000))) fail("offline, the game did not start");
    await wait(3000);
    await drawn(page, "09-offline");
  }
}

for (const e of errors) console.error("JS:", e.split("\n")[0]);
if (errors.length) failed = true;
await browser.close();
server.close();
process.exit(failed ? 1 : 0);
