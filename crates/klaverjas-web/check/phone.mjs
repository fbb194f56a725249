// What the browser checks share: headless Chromium, pages that look as a
// phone (412x915 CSS px at DPR 2.625, touch) whose console lines and
// errors are kept, waiting for a line or a target, touching the game's
// marked controls, and photographing a page with a test that it is not
// blank.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import puppeteer from "puppeteer-core";

export const RATIO = 2.625;
/// The phone's screen in CSS pixels.
export const WIDTH = 412, HEIGHT = 915;
export const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));

/// The checks' verdict: each failure is said at once, and the process
/// exits with 1 at the end if there was any (or a JS error).
export const verdict = {
  failed: false,
  errors: [],
  fail(why) { console.error("FAIL:", why); this.failed = true; },
  end() {
    for (const e of this.errors) console.error("JS:", e.split("\n")[0]);
    return this.failed || this.errors.length ? 1 : 0;
  },
};

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".png": "image/png",
  ".webmanifest": "application/manifest+json", ".json": "application/json" };

/// The web build in `site`, served on 127.0.0.1 at a port of its own;
/// `route(path)` may name another folder for a path (its root and the
/// path inside it) or answer with a page of its own (`{ html }`). Its
/// address, and a close that ends every connection.
export async function serve(site, route = () => null) {
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    const asked = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const routed = route(asked);
    if (routed?.html) { res.writeHead(200, { "content-type": "text/html" }); res.end(routed.html); return; }
    const [root, inside] = routed ?? [site, asked];
    const file = path.join(root, inside.replace(/\/$/, "/index.html"));
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
      res.end(data);
    });
  });
  server.on("connection", (s) => { sockets.add(s); s.on("close", () => sockets.delete(s)); });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const close = () => { for (const s of sockets) s.destroy(); server.close(); };
  return { base: `http://127.0.0.1:${server.address().port}/`, close };
}

/// Chromium, as a phone unless `phone` is false (then a 1280x720 desktop).
// The phone's pixel ratio is the browser's own (--force-device-scale-factor),
// not DevTools' emulated one: under emulation the canvas reports its size
// in CSS pixels as device pixels (ResizeObserver's devicePixelContentBox),
// and the game would draw for a screen 2.6 times too small.
export function launch(phone) {
  return puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    defaultViewport: phone ? null : { width: 1280, height: 720 },
    args: [...(phone ? [`--force-device-scale-factor=${RATIO}`, `--window-size=${WIDTH},${HEIGHT}`] : []), "--no-sandbox",
      "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--ignore-gpu-blocklist",
      "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/// A page of `context` looking as a phone, whose console lines are kept
/// (each with the time it came) and whose errors fail the check; `echo`
/// says which lines are also printed (prefixed by `label`).
export async function open(context, { phone = true, echo = /worker|--stats/, label = "page" } = {}) {
  const page = await context.newPage();
  if (phone) {
    const cdp = await page.createCDPSession();
    await cdp.send("Emulation.setDeviceMetricsOverride", { width: WIDTH, height: HEIGHT, deviceScaleFactor: 0, mobile: true });
    await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 5 });
    await page.setUserAgent("Mozilla/5.0 (Linux; Android 14) Mobile");
  }
  page.lines = [];
  // Where the game's marked controls are (`?targets`), in CSS pixels.
  page.targets = new Map();
  page.moved = Date.now();
  page.on("framenavigated", (f) => { if (f === page.mainFrame()) page.targets.clear(); });
  page.on("pageerror", (e) => verdict.errors.push(`${label}: ${e}`));
  page.on("console", (m) => {
    const text = m.text().replace(/%c/g, "");
    page.lines.push({ text, at: Date.now() });
    const target = text.match(/target (\S+) (?:(-?\d+),(-?\d+)|gone)/);
    if (target) page.moved = Date.now();
    if (target && target[2] === undefined) page.targets.delete(target[1]);
    else if (target) page.targets.set(target[1], [Number(target[2]) / RATIO, Number(target[3]) / RATIO]);
    if (m.type() === "error") verdict.errors.push(`${label}: ${text}`);
    else if (echo.test(text)) console.log(`${label}:`, text.replace(/color: [^ ]*/g, "").slice(0, 200));
  });
  return page;
}

/// What `get` gives once it gives something, waited for (null past `timeout`).
export async function until(get, timeout) {
  const end = Date.now() + timeout;
  for (;;) {
    const got = await get();
    if (got) return got;
    if (Date.now() > end) return null;
    await wait(50);
  }
}

/// The first console line matching `re` from `since` on, waited for.
export async function line(page, re, since, timeout) {
  return until(() => page.lines.find((l) => l.at >= since && re.test(l.text)), timeout);
}

/// How many colours a picture (PNG, base64) shows, counted by `page` at
/// 96x96 and 16 levels a channel: one is a blank felt.
export function coloursOf(page, png) {
  return page.evaluate(async (b64) => {
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
  }, png);
}

// How many colours the page shows, read from its screenshot (a WebGL
// canvas cannot be read back once shown).
export async function drawn(page, out, name) {
  const file = path.join(out, name + ".png");
  const shot = await page.screenshot({ encoding: "base64" });
  fs.writeFileSync(file, Buffer.from(shot, "base64"));
  const colours = await coloursOf(page, shot);
  console.log(`${name}: ${colours} colours, ${file}`);
  if (colours < 3) verdict.fail(`${name}: the canvas is blank`);
  return colours;
}

/// A touch: down, a moment, up (on the page in front: Chromium drops
/// touches sent to a page behind another).
export async function press(page, x, y, hold = 150) {
  await page.touchscreen.touchStart(x, y); await wait(hold); await page.touchscreen.touchEnd();
}

/// Until the page stands still: no control moved for a second (a page's
/// first frames are laid out before the canvas has its size; a page
/// brought to the front draws what came while it was behind).
export async function still(page) {
  await until(() => Date.now() - page.moved > 1500, 15000);
}

/// The page brought to the front, as a phone picked up: it draws again
/// (Chromium draws only the page in front) and lays out anew.
export async function front(page) {
  await page.bringToFront();
  page.moved = Date.now();
}

/// A finger drawn across the screen from (x0, y0) to (x1, y1).
export async function swipe(page, x0, y0, x1, y1) {
  await page.touchscreen.touchStart(x0, y0);
  for (let step = 1; step <= 4; step++) {
    await page.touchscreen.touchMove(x0 + (x1 - x0) * step / 4, y0 + (y1 - y0) * step / 4);
    await wait(50);
  }
  await page.touchscreen.touchEnd();
  await wait(300);
}

/// Until the page has drawn two frames: the game has seen what came
/// before (in software a frame may take a second, longer than a finger's
/// tap).
export async function frames(page) {
  // A page that draws nothing (behind another) must not stop the check.
  const drawnTwice = page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await Promise.race([drawnTwice, wait(5000)]);
}

/// A touch on a button, held until the game has seen the finger down (a
/// button is pressed by a finger seen down, then up), and the moment the
/// screen takes to follow it.
export async function touch(page, x, y) {
  await page.touchscreen.touchStart(x, y);
  await frames(page);
  await page.touchscreen.touchEnd();
  await frames(page);
  await wait(1500);
}

/// A touch on the game's control `name`, where the game says it is now.
export async function tap(page, name) {
  await front(page);
  if (!(await until(() => page.targets.get(name), 20000))) { verdict.fail(`no control ${name} on the screen`); return false; }
  await still(page);
  // Below (or above) the screen's edge: a finger scrolls the page to it.
  for (let swipes = 0; swipes < 8; swipes++) {
    const [, y] = page.targets.get(name);
    if (y > 40 && y < HEIGHT - 40) break;
    const by = Math.sign(y - HEIGHT / 2) * Math.min(400, Math.abs(y - HEIGHT / 2));
    await swipe(page, WIDTH / 2, HEIGHT / 2 + by / 2, WIDTH / 2, HEIGHT / 2 - by / 2);
    await still(page);
  }
  await touch(page, ...page.targets.get(name));
  return true;
}

/// Typing into the game's text field `name`: a touch on it (the phone's
/// keyboard opens), then the keys, one at a time as fingers do.
export async function type(page, name, text) {
  // The phone's keyboard is egui's hidden <input> taking the focus; a
  // touch the game saw as no tap on the field leaves it closed: again.
  const open = () => page.evaluate(() => document.activeElement?.id === "egui_text_agent");
  for (let touches = 0; touches < 3 && !(await open()); touches++) {
    if (!(await tap(page, name))) return;
    await until(open, 3000);
  }
  if (!(await open())) verdict.fail(`the keyboard did not open for ${name}`);
  await letters(page.lines, name, text, (letter) => page.keyboard.type(letter));
  await frames(page);
  await wait(300);
}

/// Types `text` into the game's field `name` a key at a time (`press`):
/// each letter shows at once, after the ones before it, with the caret
/// painted behind it, as the game logs the field when it draws it (`?targets`,
/// in `lines`). The slowest letter's wait, in ms.
export async function letters(lines, name, text, press) {
  let typed = "", slowest = 0;
  for (const letter of text) {
    const since = Date.now();
    await press(letter);
    typed += letter;
    const shown = await until(() => lines.find((l) => {
      if (l.at < since) return false;
      const m = l.text.match(/^.*field (\S+) "(.*)" caret (\S+)( painted)?/);
      return m && m[1] === name && m[2].endsWith(typed) && Number(m[3]) === [...m[2]].length && m[4] ? l : null;
    }), 1000);
    if (!shown) {
      const last = [...lines].reverse().find((l) => l.text.includes(`field ${name} `));
      verdict.fail(`${name}: "${typed}" did not show within 1 s, the caret painted behind it (last: ${last?.text ?? "nothing"})`);
      break;
    }
    slowest = Math.max(slowest, shown.at - since);
    await wait(80);
  }
  return slowest;
}
