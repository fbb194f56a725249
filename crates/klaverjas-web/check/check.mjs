// Drives the web build in headless Chromium as a phone: 412x915 CSS px at
// DPR 2.625, touch. Serves SITE on 127.0.0.1, photographs each step into
// OUT, prints what it measured, and fails on a JS error, a blank canvas or
// a step that does not happen:
//   1. the start, navigation to the title's first frame on the screen: 5
//      cold (a new profile each) and 5 warm (the service worker's copy),
//      medians;
//   2. a demo deal with the expert bots to its end (?demo&seed=7), with
//      the frame figures the game writes at its end (--stats), how long
//      the page's thread was held at a time (Chromium's trace), the peak
//      memory of the page's renderer and the GPU process against a page
//      that only clears a WebGL canvas, and the score sheet it ends on; a
//      lesson's step;
//   3. a real deal: the first start's Classic, the title's quick start,
//      the frames drawn in 10 s while the table waits for the player,
//      a card of the hand played by a touch, and the page closed within
//      100 ms of the touch: reopened, the card is played;
//   4. a reload: the title offers Continue, and a touch on it brings
//      back the table with the cards played so far;
//   5. the server stopped: a reload still starts the game, from the
//      service worker;
//   6. a damaged save: kept aside under a key of its own, and explained;
//   7. the deals of a day (?daily=2026-11-26): played from their screen by
//      a touch, the first deal's code and the expert's points per deal
//      (worked out in the bots' Web Worker) the ones `kj daily` gives (KJ:
//      the path of a built kj); the result of a day kept in the profile,
//      its line copied to the clipboard and read back by kj, a line that
//      is no result refused;
//   8. the score sheet for real cards (SHEET: a finished sheet.ron): shown
//      from the page's storage, its picture downloaded as a PNG.
// Steps 1 and 2 are measured beside their floors too: a page that only
// clears a WebGL canvas, and Bevy and egui alone (FLOOR: the folder the
// web build's second argument made, the example bevy_floor).
//   FLOOR=DIR KJ=PATH node check.mjs SITE OUT
// PHONE=0 looks as a desktop of 1280x720 with a mouse instead (steps 1, 2).
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { coloursOf, drawn as drawnIn, launch, line, open as openPage, press, serve, tap, type, until, verdict,
  wait } from "./phone.mjs";

const [site, out] = process.argv.slice(2);
fs.mkdirSync(out, { recursive: true });
const phone = process.env.PHONE !== "0";

// The floor of the memory figures: a page that only clears a WebGL2 canvas
// as large as the game's, every frame.
const FLOOR = `<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<style>html, body { margin: 0; height: 100%; } canvas { display: block; width: 100%; height: 100%; }</style>
<canvas></canvas><script>
  const canvas = document.querySelector("canvas");
  canvas.width = Math.round(innerWidth * devicePixelRatio);
  canvas.height = Math.round(innerHeight * devicePixelRatio);
  const gl = canvas.getContext("webgl2");
  let n = 0;
  (function frame() { gl.clearColor(0.1, 0.4 + (n++ % 2) / 100, 0.2, 1); gl.clear(gl.COLOR_BUFFER_BIT); requestAnimationFrame(frame); })();
</script>`;
// Bevy and egui without the game, built by the web build's second
// argument: what the game is measured against.
const FLOOR_FILES = ["index.html", "bevy_floor.js", "bevy_floor_bg.wasm"];
const bevyFloor = process.env.FLOOR && FLOOR_FILES.every((f) => fs.existsSync(path.join(process.env.FLOOR, f)))
  ? process.env.FLOOR : null;
if (!bevyFloor) verdict.fail(`FLOOR is not the folder of Bevy's floor (${FLOOR_FILES.join(", ")}): ` +
  "crates/klaverjas-web/build SITE FLOOR makes it");
const { base, close } = await serve(site, (asked) => asked === "/floor.html" ? { html: FLOOR }
  : asked.startsWith("/bevy-floor/") ? [bevyFloor, asked.slice("/bevy-floor".length)] : null);

const browser = await launch(phone);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fail = (why) => verdict.fail(why);
const open = (context) => openPage(context, { phone });
const drawn = (page, name) => drawnIn(page, out, name);

/// From a trace: the page's main thread's tasks (their count, longest and
/// 99th percentile, ms) and the GPU process's main thread's busy time (ms).
function threadTimes(trace) {
  const events = trace.traceEvents || trace;
  const names = new Map();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") names.set(`${e.pid}/${e.tid}`, e.args.name);
  const top = events.filter((e) => e.ph === "X" && e.name === "ThreadControllerImpl::RunTask");
  const on = (thread) => top.filter((e) => names.get(`${e.pid}/${e.tid}`) === thread).map((e) => e.dur / 1000);
  const page = on("CrRendererMain").sort((a, b) => a - b);
  const stamps = top.map((e) => e.ts);
  return {
    seconds: (Math.max(...stamps) - Math.min(...stamps)) / 1e6,
    page: { tasks: page.length, longest: page.at(-1) || 0, p99: page[Math.round((page.length - 1) * 0.99)] || 0 },
    gpu: on("CrGpuMain").reduce((a, b) => a + b, 0),
  };
}

/// Navigates to `url` while Chromium's screencast films every frame the
/// page shows (with its time), until `done(since, frames)` is true or 2
/// minutes have passed: the frames from the navigation on, and `since`.
async function filmed(page, url, done) {
  const cdp = await page.createCDPSession();
  const shown = [];
  cdp.on("Page.screencastFrame", (f) => {
    shown.push({ at: f.metadata.timestamp * 1000, png: f.data });
    cdp.send("Page.screencastFrameAck", { sessionId: f.sessionId }).catch(() => {});
  });
  // Small frames: the copies cost the browser, not the page.
  await cdp.send("Page.startScreencast", { format: "png", maxWidth: 103, maxHeight: 229 });
  const since = Date.now();
  await page.goto(url, { waitUntil: "load" });
  const ended = await until(() => done(since, shown), 120000);
  await cdp.send("Page.stopScreencast");
  await cdp.detach();
  // Not the page before (a reload's title, a new profile's blank page).
  while (shown.length && shown[0].at < since) shown.shift();
  return { since, shown, ended };
}

/// Navigates and times the start: navigation to the title's first frame on
/// the screen, as Chromium's screencast saw it. The page shows its own
/// loading screen until the game says its first screen is drawn; the frame
/// after the loading screen must be the title, not a bare felt. The moment
/// the title was laid out (its letters, pipelines and frame still to come)
/// is kept beside it.
async function start(page, url) {
  let laid, said;
  const { since, shown } = await filmed(page, url, async (since, shown) => {
    laid ??= await line(page, /the title is up/, since, 0);
    said ??= await line(page, /the first screen is drawn/, since, 0);
    // The screencast's copy of a frame may come a moment after the line.
    return said && shown.length > 0 && (await coloursOf(page, shown.at(-1).png)) > 40;
  });
  if (!laid || !said) return null;
  // The loading screen (its words and bar) shows 15-20 colours here, the
  // title 60-80, a bare felt 1: the title is the earliest of the last
  // frames that show more than 40.
  let title = shown.length;
  while (title > 0 && (await coloursOf(page, shown[title - 1].png)) > 40) title--;
  if (title === shown.length) { fail("the start: no frame showed the title"); return null; }
  if (title > 0 && (await coloursOf(page, shown[title - 1].png)) < 3) fail("the start: a bare felt showed before the title");
  return { drawn: Math.round(shown[title].at - since), laid: laid.at - since };
}

const MB = 1e6;
/// A figure against its target: said either way, and a failure where it
/// is worse than `limit`. Where the target is met, the limit is the target
/// with room for this machine's noise; where it is not yet, today's figure
/// with that room, so that it cannot grow unseen: sizes are exact (5%),
/// memory varies from run to run by up to a fifth here (20%); a time is
/// judged against Bevy's floor instead, timed in the same run.
function judged(what, value, unit, target, limit) {
  const met = value <= target;
  console.log(`${what}: ${value.toFixed(unit === "MB" ? 2 : 0)} ${unit} (target ${target} ${unit}: ${met ? "met" : "MISSED"})`);
  if (value > limit) fail(`${what} is ${value.toFixed(2)} ${unit}, over ${limit} ${unit}`);
}

/// The game's figure over Bevy's floor's: said, and a failure over `limit`.
function above(what, over, unit, limit) {
  if (Number.isNaN(over)) return; // no floor: failed already
  console.log(`${what}, over Bevy and egui alone: ${over.toFixed(0)} ${unit} (at most ${limit})`);
  if (!(over <= limit)) fail(`${what} is ${over.toFixed(0)} ${unit} over Bevy and egui alone, more than ${limit}`);
}

// 0. What a first visit downloads: the files the service worker keeps
// (files.js), each as a host that serves the build's compressed copies
// sends it (brotli's where the build made one).
{
  const size = (f) => (fs.existsSync(f) ? fs.statSync(f).size : null);
  const listed = fs.readFileSync(path.join(site, "files.js"), "utf8").match(/"[^"]*",/g).map((f) => f.slice(1, -2));
  const files = ["sw.js", "files.js", ...listed.filter((f) => f !== "./")];
  const sent = files.map((f) => size(path.join(site, f + ".br")) ?? size(path.join(site, f + ".gz")) ?? size(path.join(site, f)));
  const wasm = path.join(site, "klaverjas_bg.wasm");
  const [raw, gz, br] = [size(wasm), size(wasm + ".gz"), size(wasm + ".br")];
  console.log(`the game's wasm: ${(raw / MB).toFixed(2)} MB raw, ${(gz / MB).toFixed(2)} MB gzip, ` +
    `${br === null ? "no brotli copy" : (br / MB).toFixed(2) + " MB brotli"}; the bots' ` +
    `${(size(path.join(site, "klaverjas_worker_bg.wasm")) / MB).toFixed(2)} MB raw`);
  judged("the game's wasm, raw", raw / MB, "MB", 15, 24.5);
  judged(`a first visit, compressed (${files.length} files)`, sent.reduce((a, b) => a + b, 0) / MB, "MB", 6, 6.3);
}

/// The peaks of `chromiumMemory` while `until` is pending, every half second.
async function memoryPeaks(until) {
  const peak = { renderer: 0, gpu: 0, both: 0 };
  const sampler = setInterval(() => {
    const now = chromiumMemory();
    peak.renderer = Math.max(peak.renderer, now.renderer);
    peak.gpu = Math.max(peak.gpu, now.gpu);
    peak.both = Math.max(peak.both, now.renderer + now.gpu);
  }, 500);
  const result = await until;
  clearInterval(sampler);
  return { peak, result };
}

// 0. The floor of step 2's memory figures, measured first (the largest
// renderer is the floor's page): the browser's own memory for a page that
// draws with WebGL, in a profile of its own.
let floor;
{
  const floorContext = await browser.createBrowserContext();
  const floorPage = await open(floorContext);
  await floorPage.goto(base + "floor.html", { waitUntil: "load" });
  const cleared = await floorPage.evaluate(() => n);
  ({ peak: floor } = await memoryPeaks(wait(10000)));
  const perSecond = ((await floorPage.evaluate(() => n)) - cleared) / 10;
  await floorContext.close();
  console.log(`a page that only clears a WebGL canvas of the phone's size: the renderer ${floor.renderer.toFixed(0)} MB, ` +
    `the GPU process ${floor.gpu.toFixed(0)} MB, together ${floor.both.toFixed(0)} MB at their peak; ` +
    `${perSecond.toFixed(1)} frames a second`);
}
// 0b. Bevy and egui alone (the game's features, window and camera, a
// title of five buttons, every frame drawn): the start with the CPU
// slowed 6x to its first frame on the screen (5 cold, the median), its
// memory and its frames a second. The game cannot go below these.
const bevy = {};
if (bevyFloor) {
  // Its memory and frames first, as the other floor's (no closed page's
  // leftovers beside it); the second 10 s of frames (the first hold the
  // start).
  const floorContext = await browser.createBrowserContext();
  const floorPage = await open(floorContext);
  const since = Date.now();
  await floorPage.goto(base + "bevy-floor/", { waitUntil: "load" });
  const counted = () => floorPage.lines.filter((l) => l.at >= since && /bevy_floor: [\d.]+ frames a second/.test(l.text));
  const { peak, result: said } = await memoryPeaks(until(() => counted()[1], 60000));
  await floorContext.close();
  if (!said) fail("Bevy's floor said no frames a second");
  else bevy.perSecond = Number(said.text.match(/([\d.]+) frames a second/)[1]);
  bevy.both = peak.both;
  // The frames' colours are counted by a page of their own, not slowed:
  // counting them in the page being timed would slow its start.
  const probeContext = await browser.createBrowserContext();
  const probe = await open(probeContext);
  const title = async (f) => (await coloursOf(probe, f.png)) > 2;
  const cold = [];
  for (let i = 0; i < 5; i++) {
    const coldContext = await browser.createBrowserContext();
    const coldPage = await open(coldContext);
    await (await coldPage.createCDPSession()).send("Emulation.setCPUThrottlingRate", { rate: 6 });
    // Before its first frame the page is one colour: the title has more.
    const { since, shown, ended } = await filmed(coldPage, base + "bevy-floor/", async (since, shown) =>
      shown.length > 0 && shown.at(-1).at >= since && title(shown.at(-1)));
    await coldContext.close();
    if (!ended) { fail("Bevy's floor never showed its title"); continue; }
    let first = 0;
    while (!(await title(shown[first]))) first++;
    cold.push(Math.round(shown[first].at - since));
  }
  await probeContext.close();
  bevy.start = cold.length ? median(cold) : undefined;
  console.log(`Bevy and egui alone (the game's features, a title of five buttons): wasm ` +
    `${(fs.statSync(path.join(bevyFloor, "bevy_floor_bg.wasm")).size / MB).toFixed(2)} MB raw; its first frame with the CPU ` +
    `slowed 6x, cold, median ${bevy.start} ms (${cold.join(", ")}); the renderer ${peak.renderer.toFixed(0)} MB and the GPU ` +
    `process ${peak.gpu.toFixed(0)} MB, together ${peak.both.toFixed(0)} MB at their peak; ${bevy.perSecond} frames a second`);
}
// 1. The start, cold and warm, at this machine's speed and with the CPU
// slowed six times (DevTools' stand-in for a cheap Android phone).
const starts = {};
let context;
let page;
let throttle;
for (const rate of [1, 6]) {
  const cold = [];
  for (let i = 0; i < 5; i++) {
    if (context) await context.close();
    context = await browser.createBrowserContext();
    page = await open(context);
    // The session that slows the CPU is kept: only it can undo it (a
    // second session's rate of 1 left the demo deal slowed 6x).
    throttle = await page.createCDPSession();
    await throttle.send("Emulation.setCPUThrottlingRate", { rate });
    const times = await start(page, base);
    if (times === null) fail(`the title never came (CPU slowed ${rate} times)`);
    else cold.push(times);
  }
  // The last context keeps its service worker: wait until it holds the game.
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await wait(3000);
  const warm = [];
  for (let i = 0; i < 5; i++) {
    const times = await start(page, base);
    if (times === null) fail(`the title never came from the service worker's copy (CPU slowed ${rate} times)`);
    else warm.push(times);
  }
  const said = (runs, what) => `median ${median(runs.map((t) => t[what]))} ms (${runs.map((t) => t[what]).join(", ")})`;
  starts[rate] = { cold: median(cold.map((t) => t.drawn)), warm: median(warm.map((t) => t.drawn)) };
  console.log(`start to the title's first frame, CPU slowed ${rate}x: cold ${said(cold, "drawn")}, warm ${said(warm, "drawn")}; ` +
    `the title laid out: cold ${said(cold, "laid")}, warm ${said(warm, "laid")}`);
}
// A start's time alone says as much of the machine as of the game (the
// same build took 4.7 s here and 8.3 s on CI's machine, which failed a
// limit of 8 s), so what fails is the game's start as a multiple of
// Bevy's floor, timed in the same run: 1.65 and 1.84 here, 1.73 on CI;
// each median alone moves by a fifth from run to run, so past 2.4 fails.
judged("the cold start with the CPU slowed 6x", starts[6].cold, "ms", 2500, Infinity);
if (bevy.start !== undefined) { // no floor: failed already
  const times = starts[6].cold / bevy.start;
  console.log(`the cold start with the CPU slowed 6x, as a multiple of Bevy and egui alone's: ${times.toFixed(2)} (at most 2.4)`);
  if (!(times <= 2.4)) fail(`the cold start with the CPU slowed 6x is ${times.toFixed(2)} times Bevy and egui alone's, more than 2.4`);
}
await throttle.send("Emulation.setCPUThrottlingRate", { rate: 1 });
await drawn(page, "01-first-start");

/// Whether process `pid` is `root` or a process it started, or theirs.
function descends(pid, root) {
  for (let at = pid, up = 0; at > 1 && up < 8; up++) {
    if (at === root) return true;
    at = Number(fs.readFileSync(`/proc/${at}/stat`, "utf8").match(/\) \S+ (\d+)/)[1]);
  }
  return false;
}

/// The resident memory (MB) of Chromium's largest renderer (the game's
/// page: the others are a spare one and the closed pages' leftovers) and
/// of its GPU process, read from /proc.
function chromiumMemory() {
  const of = { renderer: 0, gpu: 0 };
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      const kind = cmd.includes("--type=renderer") ? "renderer" : cmd.includes("--type=gpu-process") ? "gpu" : null;
      if (!kind || !descends(Number(pid), browser.process().pid)) continue;
      const rss = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
      if (rss) of[kind] = Math.max(of[kind], Number(rss[1]) / 1000);
    } catch { /* the process ended */ }
  }
  return of;
}

// 2. A demo deal to its end, with the frame figures.
{
  const since = Date.now();
  await page.goto(base + "?demo&seed=7&bots=expert&quit-after-deals=1&stats=page", { waitUntil: "load" });
  await wait(8000);
  await drawn(page, "02-demo-trick");
  // Chromium's own record of the rest of the deal: how long the page's
  // thread is held at a time (the game's frames: its systems and the
  // drawing commands), apart from the GPU process that carries them out
  // (in software here).
  const trace = path.join(out, "demo-trace.json");
  await page.tracing.start({ path: trace, categories: ["toplevel"] });
  const { peak, result: stats } = await memoryPeaks(line(page, /--stats \{/, since, Number(process.env.DEMO_WAIT || 300000)));
  await page.tracing.stop();
  if (!stats) fail("the demo deal did not end");
  else {
    const figures = JSON.parse(stats.text.slice(stats.text.indexOf("{"), stats.text.lastIndexOf("}") + 1));
    console.log(`demo deal: ${((stats.at - since) / 1000).toFixed(1)} s, frames ${figures.frames}, ` +
      `${figures.frames_per_second} a second while the table moved, longest ${figures.longest_frame_ms} ms, p99 ${figures.p99_frame_ms} ms`);
    // Today's 6.85-7.03 a second (SwiftShader at the phone's 2.6 M pixels)
    // less 40%, for a slower machine: the target is twice as many.
    if (figures.frames_per_second < 4.1) fail(`the demo deal drew ${figures.frames_per_second} frames a second`);
    // Bevy alone, drawing its title, is faster (today the deal draws 0.65
    // to 0.71 of its frames); 40% fewer than that fails.
    if (bevy.perSecond) {
      const share = figures.frames_per_second / bevy.perSecond;
      console.log(`demo deal: ${share.toFixed(2)} of the frames a second of Bevy and egui alone (${bevy.perSecond})`);
      if (!(share >= 0.4)) fail(`the demo deal drew ${share.toFixed(2)} of the frames a second of Bevy alone`);
    }
    console.log(`demo deal, memory at its peak: the page's renderer ${peak.renderer.toFixed(0)} MB, ` +
      `the GPU process ${peak.gpu.toFixed(0)} MB; above the page that only clears: ` +
      `${(peak.renderer - floor.renderer).toFixed(0)} and ${(peak.gpu - floor.gpu).toFixed(0)} MB`);
    judged("demo deal, the page's renderer and the GPU process together at their peak", peak.both, "MB", 300, 1250);
    // Today 322-369 MB over Bevy alone; a fifth of the whole again (this
    // machine's noise, about 200 MB) more than that fails.
    above("demo deal, the renderer and the GPU process together", peak.both - bevy.both, "MB", 500);
    const held = threadTimes(JSON.parse(fs.readFileSync(trace, "utf8")));
    console.log(`demo deal, ${held.seconds.toFixed(1)} s traced: the page's thread held ${held.page.tasks} times, ` +
      `longest ${held.page.longest.toFixed(1)} ms, p99 ${held.page.p99.toFixed(1)} ms; ` +
      `the GPU process busy ${(100 * held.gpu / held.seconds / 1000).toFixed(0)}% of the time`);
  }
  await drawn(page, "03-demo-end-score-sheet");
}

// A lesson's step, in a profile of its own so that the real deal below
// still meets the first start.
{
  const lessonContext = await browser.createBrowserContext();
  const lessonPage = await open(lessonContext);
  await lessonPage.goto(base + "?lesson=following", { waitUntil: "load" });
  if (!(await line(lessonPage, /zoom/, 0, 60000))) fail("the lesson did not start");
  await wait(6000);
  await drawn(lessonPage, "04-lesson-step");
  await lessonContext.close();
}

// 7. The deals of a day, in a profile of their own: the same deals and the
// same yardstick in the browser as on this machine.
{
  const kj = process.env.KJ;
  if (!kj) fail("KJ is not set: the path of kj, to compare the day's deals with");
  const want = JSON.parse(execFileSync(kj, ["daily", "--date", "2026-11-26", "--rules", "classic", "--bots",
    "heuristic", "--json"], { encoding: "utf8" }));
  const dayContext = await browser.createBrowserContext();
  const dayPage = await open(dayContext);
  const since = Date.now();
  await dayPage.goto(base + "?daily=2026-11-26&targets", { waitUntil: "load" });
  if (!(await line(dayPage, /target daily.play /, since, 60000))) fail("the day's screen did not open");
  await wait(1000);
  await drawn(dayPage, "14-day");
  await tap(dayPage, "daily.play");
  const dealt = await line(dayPage, /the deals of 2026-11-26 \(classic\): deal 1 /, since, 60000);
  const yardstick = await line(dayPage, /the day's yardstick: /, since, 120000);
  // The expert's four deals have a worker of their own: the bots' cards
  // do not wait behind them.
  if (!dayPage.lines.some((l) => /the day's expert plays in a Web Worker/.test(l.text))) {
    fail("the day's expert did not get a Web Worker of its own");
  }
  const code = dealt && dealt.text.match(/deal 1 ([0-9A-Z-]+)/)[1];
  const listed = yardstick && yardstick.text.match(/yardstick: \[([0-9, ]*)\]/);
  const points = listed && listed[1].split(",").map(Number);
  const expected = want.deals.map((d) => d.expert);
  if (code !== want.deals[0].code) fail(`the day's first deal in the browser is ${code}, kj says ${want.deals[0].code}`);
  if (JSON.stringify(points) !== JSON.stringify(expected)) {
    fail(`the day's yardstick in the browser is ${JSON.stringify(points)}, kj says ${JSON.stringify(expected)}`);
  }
  console.log(`the deals of 2026-11-26 in the browser: deal 1 ${code}, the expert's points ${JSON.stringify(points)} ` +
    `from the worker ${((yardstick.at - since) / 1000).toFixed(1)} s after the page opened, as kj daily gives them`);
  await wait(3000);
  await drawn(dayPage, "15-day-deal");

  // The day played for the record, as the profile keeps it: its screen
  // opens on the result, whose Copy puts the line on the browser's
  // clipboard. Read back, kj takes it as a friend's line of the same day;
  // pasted into the game, it is shown beside the player's own.
  const mine = [120, 0, 148, 100];
  const marks = mine.map((p, i) => (p >= expected[i] ? "AtLeast" : "Fewer"));
  const profile = `(format: 1, days: [(result: (day: (year: 2026, month: 11, day: 26), preset: Classic, ` +
    `bots: Heuristic, points: ${mine.reduce((a, b) => a + b)}, expert: ${expected.reduce((a, b) => a + b)}, ` +
    `marks: (${marks.join(", ")})), mine: [${mine.join(", ")}], expert: [${expected.join(", ")}], ` +
    `codes: [${want.deals.map((d) => `"${d.code}"`).join(", ")}])])`;
  // writeText asks for "clipboard-sanitized-write", which a browser grants
  // a page the player touches, and headless Chromium must be told to.
  await dayContext.overridePermissions(base.replace(/\/$/, ""), ["clipboard-read", "clipboard-write", "clipboard-sanitized-write"]);
  await dayPage.goto(base + "?daily=2026-11-26&targets", { waitUntil: "load" });
  if (!(await line(dayPage, /target daily\./, Date.now(), 60000))) fail("the day's screen did not open again");
  const stored = await dayPage.evaluate((text) => {
    // The day's deals keep their own slot, beside a match's save.ron.
    const saved = Object.keys(localStorage).find((k) => k.endsWith("day.ron"));
    if (!saved) return false;
    localStorage.setItem(saved.replace(/day\.ron$/, "profile.ron"), text);
    localStorage.removeItem(saved);
    return true;
  }, profile);
  if (!stored) fail("the day's deals left no saved game in the page's storage");
  await dayPage.goto(base + "?daily=2026-11-26&targets", { waitUntil: "load" });
  await tap(dayPage, "daily.copy");
  const copied = await until(async () => (await dayPage.evaluate(() => navigator.clipboard.readText().catch(() => ""))) || null, 10000);
  if (!copied) fail("Copy put nothing on the browser's clipboard");
  else {
    const read = JSON.parse(execFileSync(kj, ["daily", "--date", "2026-11-26", "--rules", "classic", "--bots",
      "heuristic", "--result", copied, "--json"], { encoding: "utf8" })).result;
    const kept = { points: mine.reduce((a, b) => a + b), at_least: marks.filter((m) => m === "AtLeast").length };
    if (read.points !== kept.points || read.at_least !== kept.at_least) {
      fail(`the copied line ${JSON.stringify(copied)} reads as ${JSON.stringify(read)}, the day kept is ${JSON.stringify(kept)}`);
    }
    await type(dayPage, "daily.friend", "not a result");
    await tap(dayPage, "daily.compare");
    if (!(await until(() => dayPage.targets.get("daily.refused"), 10000))) fail("a line that is no result was not refused");
    console.log(`the day's line copied in the browser and read back by kj: ${JSON.stringify(copied)}`);
  }
  await drawn(dayPage, "16-day-result-copied");
  await dayContext.close();
}

// 8. The score sheet for real cards (SHEET: a finished sheet.ron, as the
// Xvfb check kept it): opened from the page's storage, and its picture
// downloaded as a PNG of the whole sheet.
if (process.env.SHEET) {
  const sheetContext = await browser.createBrowserContext();
  const downloads = fs.mkdtempSync(path.join(out, "downloads-"));
  const session = await browser.target().createCDPSession();
  await session.send("Browser.setDownloadBehavior",
    { behavior: "allow", downloadPath: downloads, browserContextId: sheetContext.id });
  const sheetPage = await open(sheetContext);
  await sheetPage.goto(base + "?screen=sheet&targets", { waitUntil: "load" });
  await sheetPage.evaluate((text) => localStorage.setItem("klaverjas:klaverjas/sheet.ron", text),
    fs.readFileSync(process.env.SHEET, "utf8"));
  const since = Date.now();
  await sheetPage.goto(base + "?screen=sheet&targets", { waitUntil: "load" });
  if (!(await line(sheetPage, /target sheet.picture /, since, 60000))) fail("the kept score sheet did not open");
  await wait(1000);
  await drawn(sheetPage, "17-sheet");
  // A touch the page took while it still settled is touched again.
  let kept = null;
  for (let touches = 0; touches < 3 && !kept; touches++) {
    const touched = Date.now();
    await tap(sheetPage, "sheet.picture");
    kept = await line(sheetPage, /the score sheet's picture: (\S+)/, touched, 20000);
  }
  const file = await until(() => fs.readdirSync(downloads).find((f) => f.endsWith(".png")), 60000);
  if (!kept || !file) fail("the score sheet's picture was not downloaded");
  else {
    const png = fs.readFileSync(path.join(downloads, file));
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    console.log(`the score sheet's picture, downloaded: ${file}, ${width}x${height}, ${png.length} bytes`);
    if (png.subarray(1, 4).toString() !== "PNG" || width < 400) fail(`the downloaded picture ${file} is no picture of the sheet`);
    fs.copyFileSync(path.join(downloads, file), path.join(out, "18-sheet-picture.png"));
  }
  await sheetContext.close();
}

if (phone) {
  // 3. A real deal, a card played by a touch, the page closed at once.
  const savedGame = (p) => p.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith("save.ron"));
    return key ? localStorage.getItem(key) : null;
  });
  const real = base + "?targets";
  const opened = Date.now();
  await page.goto(real, { waitUntil: "load" });
  await line(page, /the first screen is drawn/, opened, 60000);
  await wait(1500);
  await drawn(page, "05-first-start");
  // Every step of the real deal is a touch: the first start's Classic, the
  // title's quick start, the bid and the card.
  const shown = async (p) => (await p.screenshot({ encoding: "base64" })).length;
  const before = await shown(page);
  // The game's sound: made when the game starts, playing once touched.
  const audio = () => page.evaluate(() => (window.klaverjasAudio || []).map((c) => c.state).join(", ") || "none");
  const untouched = await audio();
  await tap(page, "preset.classic");
  if ((await shown(page)) === before) fail("a touch on the first start's Classic did not press it");
  const touched = await audio();
  console.log(`sound: audio contexts before a touch ${untouched}; after it ${touched}`);
  if (!touched.includes("running")) fail("the sound did not start at the first touch");
  // Hidden, the page falls silent; shown again, it plays on.
  const [hidden, again] = await page.evaluate(async () => {
    const states = () => window.klaverjasAudio.map((c) => c.state).join(", ");
    const show = async (hidden) => {
      Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
      document.dispatchEvent(new Event("visibilitychange"));
      await new Promise((r) => setTimeout(r, 300));
      return states();
    };
    return [await show(true), await show(false)];
  });
  console.log(`sound: the page hidden ${hidden}; shown again ${again}`);
  if (hidden.includes("running") || !again.includes("running")) fail("the sound did not follow the page's visibility");
  await drawn(page, "06-title");
  await tap(page, "quick");
  // Until the save stands still, the bots are bidding or playing; then it
  // is the player's turn. A card of the hand is tried from left to right;
  // where none is taken it is a bid, and Play is chosen.
  const hand = [32, 75, 118, 162, 206, 250, 294, 359].map((x) => [x, 850]);
  // The player's card is the one that is in the save within 100 ms of
  // the press: a bot's follows the show, seconds later.
  const cards = (save) => ((save || "").match(/Play\(/g) || []).length;
  let played = null;
  for (let round = 0; round < 20 && !played; round++) {
    let before = await savedGame(page);
    for (let still = 0; still < 3; still++) {
      await wait(1000);
      const now = await savedGame(page);
      if (now !== before) { before = now; still = -1; }
    }
    if (round === 0) {
      await drawn(page, "07-table");
      // The table waits for the player: nothing moves, so nothing is
      // drawn. Chromium's trace counts the frames the page hands to the
      // screen; one is let pass for Chromium's own (a page's focus).
      const trace = path.join(out, "idle-trace.json");
      await page.tracing.start({ path: trace, categories: ["viz", "gpu"] });
      await wait(10000);
      await page.tracing.stop();
      const swaps = (JSON.parse(fs.readFileSync(trace, "utf8")).traceEvents || [])
        .filter((e) => e.name === "SkiaOutputSurfaceImplOnGpu::SwapBuffers").length;
      console.log(`the table waiting for the player: ${swaps} frames drawn in 10 s`);
      if (swaps > 1) fail(`the table waiting for the player drew ${swaps} frames in 10 s (target 0)`);
    }
    for (const [x, y] of hand) {
      await press(page, x, y, 80);
      await wait(40);
      if (cards(await savedGame(page)) > cards(before)) {
        // Closed within 100 ms of the press.
        await page.close();
        played = { x, y, before };
        break;
      }
      await wait(600);
      if ((await savedGame(page)) !== before) break;
    }
    if (!played && (await savedGame(page)) === before && page.targets.has("bid.play")) await tap(page, "bid.play");
  }
  if (!played) fail("no card of the hand could be played");
  else {
    page = await open(context);
    await page.goto(real, { waitUntil: "load" });
    await wait(4000);
    const after = await savedGame(page);
    console.log(`a card touched at (${played.x}, ${played.y}), the page closed: ` +
      `${cards(played.before)} cards in the save before, ${cards(after)} after reopening`);
    if (cards(after) <= cards(played.before)) fail("the card touched was lost with the page");
    await drawn(page, "08-reopened");
    // 4. A reload goes on where it was.
    const kept = await savedGame(page);
    await page.reload({ waitUntil: "load" });
    await wait(4000);
    await drawn(page, "09-reloaded");
    // The title offers Continue, in the quick start's place: a touch on
    // it brings back the table with the cards played so far.
    const title = await shown(page);
    await tap(page, "continue");
    if ((await shown(page)) === title) fail("a touch on Continue did not bring the table back");
    await drawn(page, "10-continued");
    if (cards(await savedGame(page)) < cards(kept)) fail("Continue lost cards of the game");
    // 5. The server stopped: the service worker starts the game.
    close();
    const since = Date.now();
    await page.reload({ waitUntil: "load" });
    if (!(await line(page, /the title is up|zoom/, since, 60000))) fail("offline, the game did not start");
    await wait(3000);
    await drawn(page, "11-offline");
    // 6. A damaged save: kept aside under a key of its own, explained on
    // the title, and the game goes on.
    const damaged = "this is no saved game";
    await page.evaluate((text) => {
      const key = Object.keys(localStorage).find((k) => k.endsWith("save.ron"));
      localStorage.setItem(key, text);
    }, damaged);
    await page.reload({ waitUntil: "load" });
    await line(page, /the first screen is drawn/, Date.now() - 1000, 60000);
    await wait(3000);
    await drawn(page, "12-damaged-save");
    const aside = await page.evaluate((text) => Object.keys(localStorage).filter((k) => localStorage.getItem(k) === text), damaged);
    console.log(`a damaged save: kept as ${aside.join(", ") || "nothing"}`);
    if (!aside.some((k) => !k.endsWith("save.ron"))) fail("the damaged save was not kept aside");
  }
}

await browser.close();
close();
process.exit(verdict.end());
