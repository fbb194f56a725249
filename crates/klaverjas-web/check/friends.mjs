// A table with friends in four phones (four headless Chromium browsers,
// 412x915 CSS px at DPR 2.625, touch, a profile each), at a table server
// that serves the web build:
//   1. Ann opens the server's page, answers the first start, opens Play
//      with friends, types her name and hosts; her screen gives the code;
//   2. Bea, Cor and Dirk open the table's link (/t/CODE), type a name and
//      tap Join: the taps each needed are counted;
//   3. Ann starts; the deal is played to its end by touch alone, each
//      phone touching a card its game marks as playable (or a bid);
//   4. in the third trick Cor's page is reloaded: it must take its chair
//      back by itself and play on from it;
//   5. every phone hears the deal's code opened with its seal holding.
// Photographs the waiting room, the same trick on two phones, and the
// score. Fails on a JS error, a step that does not happen, or a seal that
// does not hold.
//   node friends.mjs http://HOST:PORT OUT
import fs from "node:fs";
import { drawn, front, launch, line, open, press, still, tap, type, until, verdict, wait } from "./phone.mjs";

const [server, out] = process.argv.slice(2);
fs.mkdirSync(out, { recursive: true });
const base = server.replace(/\/?$/, "/");
const names = ["Ann", "Bea", "Cor", "Dirk"];
// Four phones are four browsers: each draws while it is in front (as a
// phone's browser does), and none waits on another's drawing.
const browsers = await Promise.all(names.map(() => launch(true)));
const pages = [];
for (const [i, name] of names.entries()) {
  pages.push(await open(browsers[i].defaultBrowserContext(), { label: name, echo: /at table|opened|refused|cannot/ }));
}
const close = () => Promise.all(browsers.map((b) => b.close()));
const [host, ...guests] = pages;
// A phone picked up: its page in front, drawn up to date, photographed.
const look = async (page, name) => {
  await front(page);
  await still(page);
  await drawn(page, out, name);
};
const chairOf = async (page, since) => (await line(page, /at table \w+, chair \w+/, since, 60000))?.text.match(/chair (\w+)/)[1];

// 1. Ann hosts.
await front(host);
await host.goto(base + "?targets", { waitUntil: "load" });
if (!(await line(host, /the first screen is drawn/, 0, 120000))) verdict.fail("the host's page never showed the title");
// The page's first frames are laid out before the canvas has its size.
await wait(1500);
await tap(host, "preset.classic");
await tap(host, "friends");
await type(host, "friends.name", names[0]);
await tap(host, "friends.host");
const hosted = await line(host, /at table \w+, chair/, 0, 30000);
if (!hosted) {
  verdict.fail("hosting gave no table");
  await close();
  process.exit(verdict.end());
}
const code = hosted.text.match(/at table (\w+)/)[1];
const link = `${base}t/${code}`;
console.log(`Ann hosts table ${code}; its link: ${link}`);

// 2. The others open the link and join: every touch counted.
const chairs = { [names[0]]: hosted.text.match(/chair (\w+)/)[1] };
for (const [i, guest] of guests.entries()) {
  const name = names[i + 1];
  const since = Date.now();
  await front(guest);
  await guest.goto(link + "?targets", { waitUntil: "load" });
  if (!(await until(() => guest.targets.get("friends.join"), 120000))) verdict.fail(`${name}: the link did not open the join`);
  await wait(1500);
  let taps = 0;
  await type(guest, "friends.name", name); taps++;
  await tap(guest, "friends.join"); taps++;
  chairs[name] = await chairOf(guest, since);
  if (!chairs[name]) verdict.fail(`${name} was not seated`);
  console.log(`${name}: the link opened Play with friends with the code in ${((Date.now() - since) / 1000).toFixed(1)} s; ` +
    `${taps} touches (the name field, Join) and the name typed sat ${name} in chair ${chairs[name]}`);
}
await look(host, "friends-1-waiting-room");

// 3. Ann starts; every phone plays its own cards by touch, when its own
// screen offers them: a card it marks as playable, a bid, or the last
// trick's roem.
await tap(host, "friends.start");
const started = Date.now();
let plays = 0, bids = 0, reloaded = false, photographed = false, lastCard = 0;
const opened = (page) => page.lines.find((l) => l.at >= started && /deal \d+ opened/.test(l.text));
const playable = (page) => [...page.targets.keys()].find((k) => k.startsWith("play."));
const bid = (page) => ["bid.play", ...[...page.targets.keys()].filter((k) => k.startsWith("bid.trump.")), "bid.pass"]
  .find((k) => page.targets.has(k));
const next = (page) => playable(page) || bid(page) || (page.targets.has("roem.pass") && "roem.pass");
while (!pages.every(opened)) {
  if (Date.now() - started > 900000) { verdict.fail(`the deal did not end in 15 minutes (${plays} cards played)`); break; }
  const page = await until(() => pages.find(next), 5000);
  if (!page) continue;
  // Acted on once its screen has caught up with the table.
  await still(page);
  if (!next(page)) continue;
  const card = playable(page);
  if (card) {
    await press(page, ...page.targets.get(card), 80);
    // The card is taken once the game stops offering it.
    if (await until(() => !page.targets.has(card), 5000)) plays++;
  } else if (bid(page)) {
    await tap(page, bid(page));
    bids++;
  } else {
    // The last trick waits for its winners' word, roem or not.
    await tap(page, "roem.pass");
  }
  if (plays === 32 && !lastCard) lastCard = Date.now();
  // 4. A reload in the third trick, one card down.
  if (plays === 9 && !reloaded) {
    reloaded = true;
    const cor = pages[2];
    const since = Date.now();
    await cor.reload({ waitUntil: "load" });
    const back = await chairOf(cor, since);
    console.log(`Cor's page reloaded in the third trick: back in chair ${back} after ${((Date.now() - since) / 1000).toFixed(1)} s, no touch`);
    if (back !== chairs.Cor) verdict.fail(`Cor came back in chair ${back}, not ${chairs.Cor}`);
  }
  if (plays === 10 && reloaded && !photographed) {
    photographed = true;
    await look(host, "friends-2-trick-ann");
    await look(pages[1], "friends-3-trick-bea");
  }
}
console.log(`the deal played by touch: ${bids} bids and ${plays} cards in ${((lastCard - started) / 1000).toFixed(0)} s, ` +
  `every phone told the deal's code ${((Date.now() - lastCard) / 1000).toFixed(0)} s after the last card`);
if (plays !== 32) verdict.fail(`${plays} cards were played by touch, not 32: a bot played for someone`);
if (!reloaded) verdict.fail("no page was reloaded mid-trick");

// 5. Every phone checked the seal; the score.
for (const [i, page] of pages.entries()) {
  const seal = opened(page);
  console.log(`${names[i]}: ${seal ? seal.text : "no deal opened"}`);
  if (!seal || !/Holds/.test(seal.text)) verdict.fail(`${names[i]}: the seal did not hold`);
}
await look(pages[2], "friends-4-score");
await close();
process.exit(verdict.end());
