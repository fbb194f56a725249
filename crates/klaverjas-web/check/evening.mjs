// A club evening of ten at a table server on 127.0.0.1 that serves the
// web build: the organiser and two players are headless Chromium phones
// (412x915 CSS px at DPR 2.625, touch), seven players are `kj` clients.
//   1. The organiser opens the page, chooses Club evening, names it and
//      organises two rounds of two deals at real cards;
//   2. Anne and Bas open its link (/v/CODE) and check in by name; seven
//      kj players check in by its code and wait to play online;
//   3. each round: the organiser draws (again, until a table has no phone
//      at it: that one goes online, played by kj's bots), starts it; the
//      phone at the other table enters its two deals with the keypad;
//      nine play, one sits out;
//   4. in the first round, between the phone's two entries, the server is
//      killed (SIGKILL) and started again on its port: every phone and kj
//      comes back by itself;
//   5. at the end the standings on the server equal the standings worked
//      out here from the evening's rounds (each deal's points to the four
//      at its table, a sitter the round's average), and the phone's typed
//      points are on the sheet.
// Photographs the check-in, a round's draw, the table's sheet on the
// phone, and the projector's page (/e/CODE).
//   SERVER=klaverjas-server KJ=kj node evening.mjs SITE OUT
import fs from "node:fs";
import path from "node:path";
import { spawn, execFileSync } from "node:child_process";
import { drawn, front, launch, line, open, still, tap, type, until, verdict, wait } from "./phone.mjs";

const [site, out] = process.argv.slice(2);
fs.mkdirSync(out, { recursive: true });
const data = fs.mkdtempSync(path.join(out, "data-"));
const SERVER = process.env.SERVER, KJ = process.env.KJ;
let server, port;
async function startServer() {
  const args = ["--bind", "127.0.0.1", "--port", String(port ?? 0), "--data", data, "--site", site, "--seed", "3"];
  server = spawn(SERVER, args, { stdio: ["ignore", "pipe", fs.openSync(path.join(out, "server.log"), "a")] });
  const first = await new Promise((ok) => server.stdout.once("data", (d) => ok(String(d))));
  port = Number(first.match(/127\.0\.0\.1:(\d+)/)[1]);
}
await startServer();
const base = `http://127.0.0.1:${port}/`;
const ws = `ws://127.0.0.1:${port}`;
const kj = (...args) => execFileSync(KJ, ["evening", ...args, "--server", ws], { encoding: "utf8" });
const get = async (p) => (await fetch(base + p.replace(/^\//, ""))).json();
const [organiserBrowser, anneBrowser, basBrowser] = await Promise.all([launch(true), launch(true), launch(true)]);
const organiser = await open(organiserBrowser.defaultBrowserContext(), { label: "organiser", echo: /at evening|refused|accepted/ });
const anne = await open(anneBrowser.defaultBrowserContext(), { label: "Anne", echo: /at evening|refused|accepted/ });
const bas = await open(basBrowser.defaultBrowserContext(), { label: "Bas", echo: /at evening|refused|accepted/ });
const phones = { Anne: anne, Bas: bas };
const players = [];
const bots = [];
const finish = async (code) => {
  for (const b of bots) b.kill();
  await Promise.all([organiserBrowser, anneBrowser, basBrowser].map((b) => b.close()));
  server.kill("SIGKILL");
  process.exit(code ?? verdict.end());
};
// A step that did not happen: what each phone last said and showed.
const must = async (what, ok) => {
  if (ok) return;
  verdict.fail(what);
  for (const [label, page] of [["organiser", organiser], ["Anne", anne], ["Bas", bas]]) {
    for (const l of page.lines.slice(-12)) console.log(`${label}: ${l.text.replace(/color: [^ ]*/g, "").slice(0, 160)}`);
    await page.screenshot({ path: path.join(out, `failed-${label}.png`) }).catch(() => {});
  }
  await finish(1);
};

// 1. The organiser.
const steps = [];
await front(organiser);
await organiser.goto(base + "?targets", { waitUntil: "load" });
must("the organiser's page showed no title", await line(organiser, /the first screen is drawn/, 0, 120000));
await wait(1500);
await tap(organiser, "preset.classic");
for (const [what, name, text] of [["Club evening", "evening"], ["the evening's name", "evening.title", "Dinsdag"],
  ["two rounds", "evening.rounds.2"], ["two deals", "evening.deals.2"], ["Organise", "evening.organise"]]) {
  if (text) await type(organiser, name, text); else await tap(organiser, name);
  steps.push(what);
}
const welcomed = await line(organiser, /at evening \w+ as the organiser/, 0, 30000);
await must("organising gave no evening", welcomed);
const code = welcomed.text.match(/at evening (\w+)/)[1];
console.log(`the organiser made evening ${code} in ${steps.length} touches or fields: ${steps.join(", ")}`);
await still(organiser);
await drawn(organiser, out, "evening-1-organiser-code");

// 2. Two phones check in by the link, seven kj players by the code.
for (const [name, page] of Object.entries(phones)) {
  await front(page);
  await page.goto(`${base}v/${code}?targets`, { waitUntil: "load" });
  await must(`${name}: the link did not open the check-in`, await until(() => page.targets.get("evening.check_in"), 120000));
  await wait(1500);
  await type(page, "evening.name", name);
  if (name === "Anne") await drawn(page, out, "evening-2-check-in");
  const since = Date.now();
  await tap(page, "evening.check_in");
  const inAs = await line(page, /at evening \w+ as player \d+/, since, 30000);
  await must(`${name} was not checked in`, inAs);
  players.push({ name, id: Number(inAs.text.match(/player (\d+)/)[1]) - 1, page });
}
for (const name of ["Cor", "Dirk", "Els", "Fem", "Gert", "Hans", "Ina"]) {
  const said = kj("check-in", "--code", code, "--name", name);
  const token = said.match(/token (\w+)/)[1];
  players.push({ name, id: Number(said.match(/player (\d+)/)[1]) - 1, token });
  // kj's bot plays this player's online table each round.
  const bot = spawn(KJ, ["evening", "play", "--server", ws, "--code", code, "--token", token, "--bot", "heuristic"],
    { stdio: ["ignore", fs.openSync(path.join(out, `kj-${name}.log`), "w"), "inherit"] });
  bots.push(bot);
}
const phoneIds = players.filter((p) => p.page).map((p) => p.id);

// 3. The rounds.
const seen = async () => get(`e/${code}/evening.json`);
let killed = false;
for (let round = 1; round <= 2; round++) {
  let draw;
  for (let draws = 1; ; draws++) {
    await tap(organiser, "evening.draw");
    draw = await until(async () => {
      const e = await seen();
      const r = e.rounds[round - 1];
      return r && r.draws === draws ? r.draw : null;
    }, 20000);
    await must(`round ${round} was not drawn`, draw);
    const online = draw.tables.findIndex((t) => !t.chairs.some((c) => phoneIds.includes(c)));
    const real = draw.tables.findIndex((t) => t.chairs.some((c) => phoneIds.includes(c)));
    if (online >= 0 && real >= 0) { draw.online = online; draw.real = real; break; }
    await must(`no draw in ${draws} had a table without a phone`, draws < 12);
    console.log(`round ${round}: draw ${draws} puts a phone at both tables: drawn again`);
  }
  const names = (t) => t.chairs.map((c) => players.find((p) => p.id === c)?.name ?? "bot").join(", ");
  console.log(`round ${round}: table ${draw.online + 1} online (${names(draw.tables[draw.online])}), ` +
    `table ${draw.real + 1} at real cards (${names(draw.tables[draw.real])}); sitting out: ${draw.sitting_out.map((c) => players.find((p) => p.id === c).name)}`);
  await must(`round ${round} has ${draw.sitting_out.length} sitting out, not one`, draw.sitting_out.length === 1);
  await tap(organiser, `evening.cards.${draw.online + 1}.online`);
  await until(async () => (await seen()).rounds[round - 1].cards[draw.online] === "online", 10000);
  if (round === 1) await drawn(organiser, out, "evening-3-draw");
  await tap(organiser, "evening.start");
  await must(`round ${round} did not start`, await until(async () => (await seen()).rounds[round - 1].started, 20000));
  // The phone at the real-cards table enters its deals.
  const keeper = players.find((p) => p.page && draw.tables[draw.real].chairs.includes(p.id));
  for (const [n, deal] of [[1, ["NS", "H", "102"]], [2, ["EW", "S", "81"]]]) {
    const page = keeper.page;
    await front(page);
    await must(`${keeper.name}'s phone shows no keypad`, await until(() => page.targets.get("sheet.key.OK"), 60000));
    await tap(page, `sheet.played.${deal[0]}.${deal[1]}`);
    for (const digit of deal[2]) await tap(page, `sheet.key.${digit}`);
    const since = Date.now();
    await tap(page, "sheet.key.OK");
    await must(`${keeper.name}'s deal ${n} was not accepted`, await line(page, /the evening accepted it/, since, 20000));
    if (round === 1 && n === 1) {
      await drawn(page, out, "evening-4-sheet");
      // 4. The server killed and started again on its port.
      server.kill("SIGKILL");
      await new Promise((ok) => server.once("exit", ok));
      await startServer();
      killed = true;
      const back = Date.now();
      await must(`${keeper.name}'s phone did not come back`, await line(page, /at evening \w+ as player/, back, 30000));
      console.log(`the server was killed (SIGKILL) after deal 1 was accepted, started again: ${keeper.name}'s phone came back in ${((Date.now() - back) / 1000).toFixed(1)} s`);
    }
  }
  await must(`round ${round} did not finish`, await until(async () => {
    const e = await seen();
    const r = e.rounds[round - 1];
    return r.tables.every((t) => t.results.length === 2);
  }, 300000));
  console.log(`round ${round} finished: the online table's two deals played by kj's bots, the phone's two entered`);
}
await must("the server was never killed", killed);

// 5. The standings, worked out again.
const evening = await seen();
const points = new Map();
for (const round of evening.rounds) {
  const mine = new Map();
  round.draw.tables.forEach((table, t) => {
    for (const result of round.tables[t].results) {
      table.chairs.forEach((player, seat) => {
        if (player === null) return;
        const team = seat % 2 === 0 ? "NS" : "EW";
        mine.set(player, (mine.get(player) ?? 0) + result.sheet_points[team] + result.sheet_roem[team]);
      });
    }
  });
  const n = mine.size;
  const average = Math.floor(([...mine.values()].reduce((a, b) => a + b, 0) + Math.floor(n / 2)) / n);
  for (const p of round.draw.sitting_out) mine.set(p, average);
  for (const [p, v] of mine) points.set(p, (points.get(p) ?? 0) + v);
}
const standings = (await get(`e/${code}/standings.json`)).standings;
for (const row of standings) {
  if (row.points !== points.get(row.player)) verdict.fail(`${row.name}: the server says ${row.points}, the rounds ${points.get(row.player)}`);
}
console.log(`the standings equal the rounds worked out again: ${standings.map((r) => `${r.place}. ${r.name} ${r.points}`).join(", ")}`);
const typed = evening.rounds.flatMap((r) => r.tables[r.cards.indexOf("real")].entered.map((d) => d.points));
if (JSON.stringify(typed) !== JSON.stringify([102, 81, 102, 81])) verdict.fail(`the phones' typed points are ${typed}, not 102, 81, 102, 81`);
const csv = await (await fetch(`${base}e/${code}/standings.csv`)).text();
if (!csv.includes(`1,${standings[0].name},${standings[0].points},`)) verdict.fail("the CSV does not hold the first place");

// The projector's page, as a TV shows it.
const tv = await organiserBrowser.newPage();
await tv.setViewport({ width: 1280, height: 720 });
await tv.goto(`${base}e/${code}`, { waitUntil: "load" });
await until(() => tv.evaluate(() => !document.getElementById("podium").hidden), 10000);
await tv.screenshot({ path: path.join(out, "evening-5-projector.png") });
const podium = await tv.evaluate(() => document.getElementById("podium").textContent);
if (!podium.includes(standings[0].name)) verdict.fail(`the projector's podium does not name ${standings[0].name}: ${podium}`);
console.log(`the projector's page: ${podium.replace(/\s+/g, " ")}`);
await finish();
