// The web build's text fields in each engine a browser may be, beside
// check.mjs's Chromium as an Android phone: Firefox ESR (Gecko, driven
// over WebDriver BiDi by Puppeteer) as a 412x915 touch screen at 2.625
// pixels to the CSS pixel whose user agent is a desktop's (as an iPad's
// Safari or a laptop with a touch screen), WebKitGTK (WebKit, driven by
// WebKitWebDriver) in MiniBrowser's narrowest window twice: with a mouse,
// and as an iPhone (its Safari's user agent, which sends bevy_egui's text
// agent down Safari's path, and touches the page dispatches itself:
// WebKitGTK has no touch screen to emulate and WebDriver's touches come
// as a mouse's; being the page's, they are no player's gesture, so that
// Safari opens its keyboard only from within a real touch is for a real
// iPhone to show), and Chromium as a 1280x720 desktop with a mouse. In
// each, a name typed a key at a time shows letter by letter with the
// caret painted behind it, and a table's code put on X's
// clipboard is pasted with Ctrl+V pressed on X's keyboard (xdotool;
// WebKitGTK asks first whether the page may read the clipboard: Yes).
// Firefox and WebKitGTK with a mouse then run the game's core path, which
// check.mjs runs in Chromium: a first start, the sound at the first
// touch, a card played, a reload continued (`corePath`).
// All draw with WebGL through Mesa in real windows, so this runs under
// Xvfb:
//   .ci/xvfb 1400x2600 node browsers.mjs SITE OUT
import fs from "node:fs";
import path from "node:path";
import { execFileSync, spawn } from "node:child_process";
import puppeteer from "puppeteer-core";
import { HEIGHT, RATIO, WIDTH, letters, serve, until, verdict, wait } from "./phone.mjs";

const [site, out] = process.argv.slice(2);
fs.mkdirSync(out, { recursive: true });
const { base, close } = await serve(site);

/// A console line of the game's, kept with the time it came.
const kept = (lines) => (text, at = Date.now()) => lines.push({ text: text.replace(/%c/g, ""), at });

/// A page of Puppeteer's `browser` as a driver of these checks.
async function puppet(browser, name, viewport) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  const lines = [];
  page.on("console", (m) => kept(lines)(m.text()));
  page.on("pageerror", (e) => verdict.errors.push(`${name}: ${e}`));
  return {
    name, lines, touchScreen: !!viewport.hasTouch,
    goto: (url) => page.goto(url, { waitUntil: "load" }),
    run: (js) => page.evaluate(`(${js})()`),
    touch: async (x, y) => {
      if (!viewport.hasTouch) return page.mouse.click(x, y, { delay: 150 });
      await page.touchscreen.touchStart(x, y); await wait(150); await page.touchscreen.touchEnd();
    },
    key: (letter) => page.keyboard.type(letter),
    shot: (file) => page.screenshot({ path: file }),
    close: () => browser.close(),
  };
}

/// Firefox ESR drawn in a real window (headless Firefox has no WebGL),
/// its pixel ratio its own (an emulated one mismeasures the canvas) and
/// touch points reported; its user agent stays a desktop's, as an iPad's
/// Safari or a laptop with a touch screen.
async function firefox() {
  const browser = await puppeteer.launch({
    browser: "firefox", executablePath: "/usr/bin/firefox-esr", headless: false,
    extraPrefsFirefox: {
      // Mesa's software GL is on Firefox's block list.
      "webgl.force-enabled": true,
      "layout.css.devPixelsPerPx": String(RATIO),
      "dom.w3c_touch_events.enabled": 1,
      "dom.maxtouchpoints.testing.value": 5,
    },
  });
  return { ...(await puppet(browser, "Firefox ESR", { width: WIDTH, height: HEIGHT, hasTouch: true })), corePath: true };
}

/// Chromium in a real window as a desktop with a mouse: a paste comes as
/// the page's paste event, not into a field of the page.
async function chromium() {
  const browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium", headless: false,
    args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--ignore-gpu-blocklist",
      "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  return puppet(browser, "Chromium", { width: 1280, height: 720 });
}

/// An iPhone's Safari, whose user agent bevy_egui reads.
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) " +
  "Version/18.0 Mobile/15E148 Safari/604.1";

/// A touch at (x, y) as the page meets one: the pointer's events, which
/// winit reads, and the touch's, on whose end Safari's text agent takes
/// the keyboard. (WebKit has no `Touch` to construct: the events carry
/// no touch list, which neither reader looks at.)
const dispatchedTouch = (x, y) => `async () => {
  const [x, y] = [${x}, ${y}];
  const target = document.elementFromPoint(x, y);
  if (!target) throw new Error(\`nothing on the page at \${x},\${y}\`);
  const at = { bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, screenX: x, screenY: y };
  const pointer = (type, down) => target.dispatchEvent(new PointerEvent(type, { ...at, pointerId: 7, pointerType: "touch",
    isPrimary: true, button: 0, buttons: down ? 1 : 0, pressure: down ? 0.5 : 0 }));
  pointer("pointerdown", true); target.dispatchEvent(new TouchEvent("touchstart", at));
  await new Promise((r) => setTimeout(r, 150));
  pointer("pointerup", false); target.dispatchEvent(new TouchEvent("touchend", at));
}`;

/// WebKitGTK's MiniBrowser through WebKitWebDriver, with a mouse or as
/// an iPhone (`agent`); the game's console lines are read from the page,
/// which keeps them from its first script on (WebDriver has no console
/// of its own).
async function webkit(agent) {
  const port = 4400 + Math.floor(Math.random() * 500);
  const driver = spawn("WebKitWebDriver", [`--port=${port}`], { stdio: "ignore" });
  const send = async (method, where, body) => {
    const r = await fetch(`http://127.0.0.1:${port}${where}`, {
      method, headers: { "content-type": "application/json" }, body: body && JSON.stringify(body),
    });
    const { value } = await r.json();
    if (!r.ok) {
      const e = new Error(`WebDriver ${where}: ${value?.message || `${r.status} ${JSON.stringify(value)}`} for ${JSON.stringify(body)}`);
      e.silent = !value?.message;
      throw e;
    }
    return value;
  };
  // One command at a time: the console's poll below and the steps would
  // otherwise meet in WebKitWebDriver, which then failed a script with no
  // message (seen once in CI, as an iPhone).
  let queue = Promise.resolve();
  const call = (method, where, body) => {
    const sent = queue.then(() => send(method, where, body));
    queue = sent.catch(() => {});
    return sent;
  };
  await until(() => fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false), 10000);
  const session = await call("POST", "/session", { capabilities: { alwaysMatch: { "webkitgtk:browserOptions": {
    binary: "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    args: ["--automation", ...(agent ? [`--user-agent=${agent}`] : [])] } } } });
  const s = (where) => `/session/${session.sessionId}${where}`;
  await call("POST", s("/window/rect"), { width: WIDTH, height: HEIGHT });
  const run = (js) => call("POST", s("/execute/sync"), { script: `return (${js})()`, args: [] });
  const lines = [];
  // Read one after the other, never two at once (both would read the
  // same lines).
  let seen = 0, polling = true;
  const poll = (async () => {
    while (polling) {
      try {
        const fresh = await run(`() => (window.__lines || []).slice(${seen})`);
        seen += fresh.length;
        for (const [text, at] of fresh) kept(lines)(text, at);
      } catch { /* between pages */ }
      await wait(250);
    }
  })();
  // After a reload WebKitWebDriver once failed a click on Continue with no
  // message (the commands were already one at a time): its input state
  // is released and the actions sent again, twice at most. A refusal with
  // a message is not retried.
  const actions = async (kind, steps) => {
    for (let tries = 0; ; tries++) {
      try {
        return await call("POST", s("/actions"), { actions: [{ type: kind, id: kind, ...steps }] });
      } catch (e) {
        if (tries >= 2 || !e.silent) throw e;
        console.log(`WebKitGTK: ${e.message}; its input released and sent again`);
        await call("DELETE", s("/actions")).catch(() => {});
        await wait(500);
      }
    }
  };
  return {
    name: agent ? "WebKitGTK as an iPhone" : "WebKitGTK", lines, touchScreen: !!agent, corePath: !agent,
    // With a mouse the paste is the page's, which WebKitGTK asks about;
    // on a phone it goes into the text agent, a field of the page's.
    asksToReadTheClipboard: !agent,
    goto: async (url) => {
      await call("POST", s("/url"), { url });
      seen = 0;
      await run(`() => { window.__lines = []; for (const k of ["log", "info", "warn", "error", "debug"]) {
        const f = console[k]; console[k] = (...a) => { window.__lines.push([a.join(" "), Date.now()]); f.apply(console, a); }; } }`);
    },
    run,
    touch: agent ? (x, y) => run(dispatchedTouch(x, y)) : (x, y) => actions("pointer", { parameters: { pointerType: "mouse" }, actions: [
      { type: "pointerMove", x: Math.round(x), y: Math.round(y) }, { type: "pointerDown", button: 0 },
      { type: "pause", duration: 150 }, { type: "pointerUp", button: 0 }] }),
    key: (letter) => actions("key", { actions: [{ type: "keyDown", value: letter }, { type: "keyUp", value: letter }] }),
    shot: async (file) => fs.writeFileSync(file, Buffer.from(await call("GET", s("/screenshot")), "base64")),
    close: async () => { polling = false; await poll; await call("DELETE", s("")).catch(() => {}); driver.kill(); },
  };
}

/// Where the game says its control `name` is, in CSS pixels.
async function where(b, name) {
  const ratio = await b.run("() => devicePixelRatio");
  const line = await until(() => [...b.lines].reverse().find((l) => l.text.includes(` target ${name} `)), 60000);
  const at = line?.text.match(/target \S+ (-?\d+),(-?\d+)/);
  return at ? [Number(at[1]) / ratio, Number(at[2]) / ratio] : null;
}

/// A touch (or click) on the field `name` until it has the keyboard: the
/// field's caret, which the game logs, and on a touch screen also the
/// page's hidden input, which opens the screen's keyboard.
async function focus(b, name) {
  const caret = (since) => () => b.lines.find((l) => l.at >= since && new RegExp(`field ${name} ".*" caret \\d`).test(l.text));
  const agent = () => b.run(`() => document.activeElement?.id === "egui_text_agent"`);
  for (let tries = 0; tries < 3; tries++) {
    const at = await where(b, name);
    if (!at) { verdict.fail(`${b.name}: no control ${name} on the screen`); return false; }
    const since = Date.now();
    await b.touch(...at);
    // On a touch screen both: the field's caret, and the hidden input
    // focused within the touch (which opens the keyboard).
    if (await until(b.touchScreen ? async () => caret(since)() && (await agent()) : caret(since), 3000)) return true;
  }
  verdict.fail(`${b.name}: the field ${name} did not take the keyboard`);
  return false;
}

/// The game's core path, where check.mjs has only Chromium: the page
/// loads, the first screen is drawn (the time from the address to it),
/// the first touch starts the sound, a deal is started from the title and
/// a card of the hand played by a touch (or a click), and a reload keeps
/// the match: the title offers Continue, which brings the table back with
/// that card played.
async function corePath(b) {
  if (!(await firstStart(b))) return;
  await wait(1500);
  await b.shot(path.join(out, `${b.file}-1-first-start.png`));
  const audio = () => b.run(`() => (window.klaverjasAudio || []).map((c) => c.state).join(", ") || "none"`);
  const untouched = await audio();
  if (!(await press(b, "preset.classic"))) return;
  const sounding = await until(async () => { const a = await audio(); return a.includes("running") && a; }, 3000);
  console.log(`${b.name}: the sound before a touch ${untouched}; after the first ${sounding || (await audio())}`);
  if (!sounding) {
    // A browser with no sound output here (Firefox finds no audio server
    // under Xvfb) keeps every context suspended, a bare one too, after
    // the page was touched: then nothing is asked of the game's.
    const bare = await b.run(`() => new Promise((ok) => { const c = new AudioContext();
      setTimeout(() => ok(c.state), 2000); c.resume().then(() => ok(c.state), () => ok("refused")); })`);
    if (bare === "running") verdict.fail(`${b.name}: the sound did not start at the first touch`);
    else console.log(`${b.name}: no sound output here (a bare audio context stays ${bare} after a touch): the sound's start is not checked`);
  }
  const saved = () => b.run(`() => { const k = Object.keys(localStorage).find((k) => k.endsWith("save.ron"));
    return k ? localStorage.getItem(k) : ""; }`);
  const cards = (save) => (save.match(/Play\(/g) || []).length;
  if (!(await press(b, "quick"))) return;
  // The bots bid and play until the player's turn: a bid (Play) or a
  // card of the hand the game offers after the last touch, touched as the
  // game marks it.
  let played = null;
  let touched = Date.now();
  for (let turn = 0; turn < 6 && !played; turn++) {
    const offered = await until(() => [...b.lines].reverse().find((l) => l.at >= touched &&
      /target (play\.\S+|bid\.play) -?\d+,-?\d+/.test(l.text)), 60000);
    if (!offered) break;
    await wait(1500);
    const name = offered.text.match(/target (\S+) /)[1];
    const before = await saved();
    touched = Date.now();
    if (!(await press(b, name))) break;
    if (name.startsWith("play.") && (await until(async () => cards(await saved()) > cards(before), 3000))) {
      played = { card: name.slice(5), cards: cards(await saved()) };
    }
  }
  if (!played) { verdict.fail(`${b.name}: no card of the hand could be played`); return; }
  console.log(`${b.name}: the ${played.card} played by a touch, ${played.cards} cards in the save`);
  await b.shot(path.join(out, `${b.file}-2-card-played.png`));
  const reloaded = Date.now();
  await b.goto(`${base}?targets`);
  if (!(await until(() => b.lines.find((l) => l.at >= reloaded && / target continue /.test(l.text)), 60000))) {
    verdict.fail(`${b.name}: after a reload the title offered no Continue`);
    return;
  }
  await wait(1500);
  const back = Date.now();
  await press(b, "continue");
  const table = await until(() => b.lines.find((l) => l.at >= back && /target (play\.|bid\.|last_trick|hint)/.test(l.text)), 20000);
  const kept = cards(await saved());
  console.log(`${b.name}: reloaded, Continue brought the table back (${kept} cards in the save, ${played.cards} before)`);
  if (!table) verdict.fail(`${b.name}: Continue did not bring the table back`);
  if (kept < played.cards) verdict.fail(`${b.name}: the reload lost cards of the match`);
  await wait(2000);
  await b.shot(path.join(out, `${b.file}-3-continued.png`));
}

/// A first start, as a new player's (nothing kept from the fields before):
/// the time from the address to the game's first screen, kept in `starts`
/// to set each engine's beside the others' at the end.
const starts = [];
async function firstStart(b) {
  await b.run("() => localStorage.clear()");
  const since = Date.now();
  await b.goto(`${base}?targets`);
  const first = await until(() => b.lines.find((l) => l.at >= since && /the first screen is drawn/.test(l.text)), 60000);
  if (!first) { verdict.fail(`${b.name}: the game's first screen was not drawn within 60 s`); return false; }
  const seconds = ((first.at - since) / 1000).toFixed(1);
  starts.push(`${b.name} ${seconds} s`);
  console.log(`${b.name}: the address to the game's first screen in ${seconds} s`);
  return true;
}

/// A touch (or click) on the control `name` where the game last drew it.
async function press(b, name) {
  const at = await where(b, name);
  if (!at) {
    const seen = b.lines.filter((l) => / target /.test(l.text)).slice(-6).map((l) => l.text.replace(/^.*target /, ""));
    verdict.fail(`${b.name}: no control ${name} on the screen (the last seen: ${seen.join("; ")})`);
    await b.shot(path.join(out, `${b.file}-no-${name}.png`));
    return false;
  }
  await b.touch(...at);
  return true;
}

const engines = { firefox, webkit: () => webkit(), iphone: () => webkit(IPHONE), chromium };
// ENGINES=webkit,... runs some of them.
for (const make of (process.env.ENGINES || "firefox,webkit,iphone,chromium").split(",").map((e) => engines[e]).filter(Boolean)) {
  const b = await make();
  b.file = b.name.toLowerCase().replace(/ /g, "-");
  const since = Date.now();
  await b.goto(`${base}?targets&screen=friends`);
  if (!(await where(b, "friends.name"))) {
    verdict.fail(`${b.name}: Play with friends did not open (${b.lines.length} lines: ${b.lines.slice(-3).map((l) => l.text).join(" | ")})`);
  }
  const size = await b.run("() => [innerWidth, innerHeight, devicePixelRatio, navigator.maxTouchPoints]");
  console.log(`${b.name}: the game drawn at ${size[0]}x${size[1]} CSS px at ${size[2]}, ${size[3]} touch points, ` +
    `Play with friends in ${((Date.now() - since) / 1000).toFixed(1)} s`);
  await wait(2000);
  // With no window manager, X gives the keys (and a page its focus) to
  // the window that has X's input focus: the page's, as a player's.
  const focusTheWindow = () => execFileSync("sh", ["-c", "xdotool search --onlyvisible --name Klaverjas windowfocus --sync || true"]);
  focusTheWindow();
  if (await focus(b, "friends.name")) {
    const slowest = await letters(b.lines, "friends.name", "Bea", b.key);
    console.log(`${b.name}: "Bea" typed a key at a time, each letter shown with the caret painted behind it; the slowest in ${slowest} ms`);
  }
  // The code as a friend sends it, on the system's clipboard (X's, which
  // both browsers read), pasted into the code's field.
  const code = "K7M2QX";
  // xclip stays to answer for the clipboard until another takes it.
  const owner = spawn("xclip", ["-selection", "clipboard"], { stdio: ["pipe", "ignore", "ignore"], detached: true });
  owner.stdin.end(code);
  owner.unref();
  await wait(300);
  if (await focus(b, "friends.code")) {
    const at = Date.now();
    // Keys from X, as a keyboard's: a driver's synthetic Control is no
    // key the browser's own paste answers.
    focusTheWindow();
    execFileSync("xdotool", ["key", "--clearmodifiers", "ctrl+v"]);
    if (b.asksToReadTheClipboard) {
      // WebKitGTK asks the player (Safari shows its Paste button): Yes,
      // at the right of the bar across the window's top. (The page
      // answers no script while it asks.)
      await wait(1500);
      execFileSync("xdotool", ["mousemove", String(size[0] - 49), "100", "sleep", "0.3", "click", "1"]);
    }
    const pasted = await until(() => b.lines.find((l) => l.at >= at && l.text.includes(`field friends.code "${code}" caret ${code.length}`)), 5000);
    if (!pasted) {
      const last = [...b.lines].reverse().find((l) => l.text.includes("field friends.code "));
      verdict.fail(`${b.name}: Ctrl+V did not paste ${code} into the code's field (last: ${last?.text ?? "nothing"})`);
    } else console.log(`${b.name}: Ctrl+V pasted ${code} from the clipboard into the code's field in ${pasted.at - at} ms`);
  }
  await wait(1000);
  const file = path.join(out, `${b.file}-typed-and-pasted.png`);
  await b.shot(file);
  console.log(`${b.name}: ${file}`);
  // Chromium's core path is check.mjs's; the iPhone's touches, which the
  // page dispatches, are no player's gesture that may start the sound.
  if (b.corePath) await corePath(b);
  else await firstStart(b);
  await b.close();
}
if (starts.length) console.log(`the address to the game's first screen, on this machine: ${starts.join(", ")}`);
// A browser without WebGL2, or with WebAssembly switched off (Lockdown
// Mode on an iPhone does that), is told what the game needs: Firefox with
// each switched off by its preference.
for (const [lacks, prefs] of [["WebGL2", { "webgl.disabled": true }], ["WebAssembly", { "javascript.options.wasm": false }]]) {
  const browser = await puppeteer.launch({ browser: "firefox", executablePath: "/usr/bin/firefox-esr", headless: false,
    extraPrefsFirefox: prefs });
  const page = await browser.newPage();
  await page.setViewport({ width: WIDTH, height: HEIGHT });
  await page.goto(base, { waitUntil: "load" });
  // The loading screen says "Klaverjas…" until it says more, or for ever.
  const says = () => page.evaluate(() => document.querySelector("#loading")?.innerText);
  const said = (await until(async () => ((await says()) || "").includes("needs") && (await says()), 10000)) || (await says());
  console.log(`Firefox without ${lacks}: the page says "${(said || "nothing").replace(/\s+/g, " ")}"`);
  if (!said || !said.includes(`needs ${lacks}`)) verdict.fail(`Firefox without ${lacks}: the page does not say the game needs it`);
  await page.screenshot({ path: path.join(out, `firefox-without-${lacks.toLowerCase()}.png`) });
  await browser.close();
}
close();
process.exit(verdict.end());
