//! An evening's pages: `/e/CODE` for a projector or a TV (it follows the
//! evening by itself), `/e/CODE/standings.json` what it reads,
//! `/e/CODE/standings.csv` for a spreadsheet, `/e/CODE/print` for paper,
//! `/e/CODE/season` the club's season. Names are the players' own words:
//! escaped in HTML, set as text by the projector's script.

use crate::Lobby;
use crate::evening::{EveningCommand, Snapshot};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use klaverjas_club::{Standing, csv};
use klaverjas_net::TableCode;
use std::sync::Arc;

pub(crate) fn routes(app: axum::Router<Arc<Lobby>>, site: bool) -> axum::Router<Arc<Lobby>> {
    use axum::routing::get;
    let app = if site { app.route("/v/{code}", get(check_in_link)) } else { app.route("/v/{code}", get(no_web_game)) };
    app.route("/e/{code}", get(projector))
        .route("/e/{code}/standings.json", get(standings_json))
        .route("/e/{code}/standings.csv", get(standings_csv))
        .route("/e/{code}/evening.json", get(evening_json))
        .route("/e/{code}/print", get(print))
        .route("/e/{code}/season", get(season))
}

/// An evening's link for phones, `/v/CODE`: the game's page, told which
/// evening to check in at.
async fn check_in_link(Path(code): Path<String>, axum::extract::RawQuery(query): axum::extract::RawQuery) -> Response {
    let more = query.map(|q| format!("&{q}")).unwrap_or_default();
    match code.parse::<TableCode>() {
        Ok(code) => axum::response::Redirect::to(&format!("/?evening={code}{more}")).into_response(),
        Err(e) => (StatusCode::NOT_FOUND, e.to_string()).into_response(),
    }
}

/// The link where this server carries no web game: how to check in.
async fn no_web_game(Path(code): Path<String>) -> Response {
    let body = match code.parse::<TableCode>() {
        Ok(code) => format!(
            "<p>This is the Klaverjas evening <b>{code}</b>.</p><p>Open Klaverjas on your phone or computer, \
             choose Club evening, and check in with the code <b>{code}</b>.</p>"
        ),
        Err(_) => "<p>This link is not a Klaverjas evening's.</p>".to_owned(),
    };
    let mut page = page("Klaverjas", "body{font:20px sans-serif;margin:2em;max-width:34em}", &body);
    *page.status_mut() = StatusCode::NOT_FOUND;
    page
}

async fn snapshot(lobby: &Lobby, code: &str) -> Result<Arc<Snapshot>, Response> {
    let missing = || (StatusCode::NOT_FOUND, "no evening has that code").into_response();
    let code: TableCode = code.parse().map_err(|_| missing())?;
    let room = lobby.evening(code).ok_or_else(missing)?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    room.send(EveningCommand::Ask(tx)).await.map_err(|_| missing())?;
    rx.await.map_err(|_| missing())
}

fn escape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '<' => "&lt;".to_owned(),
            '>' => "&gt;".to_owned(),
            '&' => "&amp;".to_owned(),
            '"' => "&quot;".to_owned(),
            '\'' => "&#39;".to_owned(),
            c => c.to_string(),
        })
        .collect()
}

fn page(title: &str, style: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width, initial-scale=1\"><title>{}</title><style>{style}</style></head>\
         <body>{body}</body></html>",
        escape(title)
    );
    // Its own script only; nothing else may run in it.
    let policy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'";
    ([(header::CONTENT_SECURITY_POLICY, policy)], Html(html)).into_response()
}

/// Where the evening is: "round 2 of 3", "drawn", "over".
fn state_line(s: &Snapshot) -> String {
    let e = &s.evening;
    match e.round() {
        _ if e.is_over() => "the final standings".to_owned(),
        None => {
            format!("{} checked in; the first round is not drawn yet", e.players.iter().filter(|p| p.present).count())
        }
        Some((n, r)) if !r.started => format!("round {} of {} is drawn", n + 1, e.setup.rounds),
        Some((n, _)) => format!("round {} of {}: {} deals to play", n + 1, e.setup.rounds, e.left()),
    }
}

async fn standings_json(Path(code): Path<String>, State(lobby): State<Arc<Lobby>>) -> Result<Response, Response> {
    let s = snapshot(&lobby, &code).await?;
    let e = &s.evening;
    let body = serde_json::json!({
        "name": e.setup.name,
        "club": e.setup.club,
        "state": state_line(&s),
        "over": e.is_over(),
        "standings": s.standings,
    });
    Ok(([(header::CACHE_CONTROL, "no-store"), (header::CONTENT_TYPE, "application/json")], body.to_string())
        .into_response())
}

/// The whole evening: every round's draw, each table's deals as entered or
/// played, what was said of each line. Nothing in it is hidden; a check
/// works the standings out again from it.
async fn evening_json(Path(code): Path<String>, State(lobby): State<Arc<Lobby>>) -> Response {
    match snapshot(&lobby, &code).await {
        Ok(s) => {
            let body = serde_json::to_string(&s.evening).unwrap_or_default();
            ([(header::CACHE_CONTROL, "no-store"), (header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        Err(r) => r,
    }
}

async fn standings_csv(Path(code): Path<String>, State(lobby): State<Arc<Lobby>>) -> Response {
    match snapshot(&lobby, &code).await {
        Ok(s) => {
            let file = format!("attachment; filename=\"evening-{code}.csv\"");
            (
                [(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()), (header::CONTENT_DISPOSITION, file)],
                csv(&s.standings),
            )
                .into_response()
        }
        Err(r) => r,
    }
}

fn standings_table(rows: &[Standing]) -> String {
    let row = |tag: &str, cells: Vec<String>| {
        let cells: String = cells.iter().map(|c| format!("<{tag}>{}</{tag}>", escape(c))).collect();
        format!("<tr>{cells}</tr>")
    };
    let head = row("th", Standing::COLUMNS.map(|c| c[..1].to_uppercase() + &c[1..]).to_vec());
    let body: String = rows.iter().map(|r| row("td", r.cells().to_vec())).collect();
    format!("<table><thead>{head}</thead><tbody>{body}</tbody></table>")
}

const PAPER: &str = "body{font:14px/1.4 sans-serif;margin:2em;color:#000}table{border-collapse:collapse;margin:.5em 0 1.5em}\
    th,td{border:1px solid #888;padding:.2em .6em;text-align:right}td:nth-child(2),th:nth-child(2){text-align:left}\
    h2{margin-top:1.5em}@media print{a{display:none}}";

async fn print(Path(code): Path<String>, State(lobby): State<Arc<Lobby>>) -> Result<Response, Response> {
    let s = snapshot(&lobby, &code).await?;
    let e = &s.evening;
    let name = |p: Option<u16>| p.and_then(|p| e.player(p)).map_or("(bot)".to_owned(), |p| escape(&p.name));
    let mut body = format!(
        "<h1>{}</h1><p>{}</p>{}",
        escape(&e.setup.name),
        escape(&state_line(&s)),
        standings_table(&s.standings)
    );
    for (n, round) in e.rounds.iter().enumerate() {
        body += &format!(
            "<h2>Round {}</h2><table><thead><tr><th>Table</th><th>North · South</th><th>East · West</th><th>Deals</th><th>NS</th><th>EW</th></tr></thead><tbody>",
            n + 1
        );
        for (t, table) in round.draw.tables.iter().enumerate() {
            let results = round.tables.get(t).map(|s| s.results.as_slice()).unwrap_or_default();
            let sum = |team: klaverjas::Team| {
                results.iter().map(|r| u32::from(r.sheet_points[team] + r.sheet_roem[team])).sum::<u32>()
            };
            body += &format!(
                "<tr><td>{}</td><td>{} · {}</td><td>{} · {}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                t + 1,
                name(table.chairs[0]),
                name(table.chairs[2]),
                name(table.chairs[1]),
                name(table.chairs[3]),
                results.len(),
                sum(klaverjas::Team::NS),
                sum(klaverjas::Team::EW)
            );
        }
        body += "</tbody></table>";
        if !round.draw.sitting_out.is_empty() {
            let out: Vec<String> = round.draw.sitting_out.iter().map(|p| name(Some(*p))).collect();
            body += &format!("<p>Sat out: {}</p>", out.join(", "));
        }
    }
    Ok(page(&e.setup.name, PAPER, &body))
}

async fn season(Path(code): Path<String>, State(lobby): State<Arc<Lobby>>) -> Result<Response, Response> {
    let s = snapshot(&lobby, &code).await?;
    let Some(rows) = &s.season else {
        return Ok((StatusCode::NOT_FOUND, "this evening counts for no club's season").into_response());
    };
    let best = s
        .evening
        .setup
        .best
        .map_or("all evenings count".to_owned(), |n| format!("each member's best {n} evenings count"));
    let mut body = format!(
        "<h1>{}: the season</h1><p>{best}; with {} as it stands.</p><table><thead><tr><th>#</th><th>Name</th><th>Evenings</th><th>Points</th></tr></thead><tbody>",
        escape(&s.evening.setup.club),
        escape(&s.evening.setup.name)
    );
    for r in rows {
        body += &format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            r.place,
            escape(&r.name),
            r.evenings,
            r.points
        );
    }
    Ok(page(&s.evening.setup.club, PAPER, &(body + "</tbody></table>")))
}

/// The projector's page: large, dark, the standings read every two
/// seconds and drawn as text; at the end the top three and the last place.
async fn projector(Path(code): Path<String>, State(lobby): State<Arc<Lobby>>) -> Result<Response, Response> {
    let s = snapshot(&lobby, &code).await?;
    let style = "html{background:#0b3d24;color:#f4f1e6}body{font:2.2vw/1.35 sans-serif;margin:2vw 3vw}\
        h1{font-size:3.4vw;margin:0}#state{color:#d9c27a;margin:.2em 0 .8em}table{width:100%;border-collapse:collapse}\
        th{color:#d9c27a;text-align:right;font-weight:normal;border-bottom:2px solid #d9c27a;padding:.15em .4em}td{text-align:right;padding:.15em .4em}\
        td:nth-child(2),th:nth-child(2){text-align:left}tr:nth-child(even) td{background:#0e4a2c}\
        #podium{display:flex;gap:2vw;margin:.5em 0 1em}#podium div{flex:1;background:#145c37;border-radius:1vw;padding:1vw;text-align:center}\
        #podium b{display:block;font-size:3vw}#last{color:#d9c27a}";
    let body = format!(
        "<h1 id=\"name\">{}</h1><div id=\"state\">{}</div><div id=\"podium\" hidden></div><p id=\"last\" hidden></p>\
         <table><thead><tr><th>#</th><th>Name</th><th>Points</th><th>Deals</th><th>Marches</th><th>Nats</th></tr></thead>\
         <tbody id=\"rows\"></tbody></table><script>{}</script>",
        escape(&s.evening.setup.name),
        escape(&state_line(&s)),
        PROJECTOR_SCRIPT.replace("CODE", &code)
    );
    Ok(page(&s.evening.setup.name, style, &body))
}

const PROJECTOR_SCRIPT: &str = r#"
const el = (tag, text) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); return e; };
async function follow() {
  try {
    const r = await fetch('/e/CODE/standings.json', { cache: 'no-store' });
    if (r.ok) draw(await r.json());
  } catch (e) {}
  setTimeout(follow, 2000);
}
function draw(s) {
  document.getElementById('state').textContent = s.state;
  const rows = document.getElementById('rows');
  rows.replaceChildren(...s.standings.map(p => {
    const tr = el('tr');
    for (const v of [p.place, p.name, p.points, p.deals, p.marches, p.nats]) tr.append(el('td', v));
    return tr;
  }));
  const podium = document.getElementById('podium'), last = document.getElementById('last');
  podium.hidden = last.hidden = !s.over;
  if (s.over && s.standings.length) {
    podium.replaceChildren(...s.standings.slice(0, 3).map((p, i) => {
      const d = el('div', ['First', 'Second', 'Third'][i]); d.append(el('b', p.name), el('span', p.points + ' points')); return d;
    }));
    const l = s.standings[s.standings.length - 1];
    last.textContent = 'The last place, with the booby prize: ' + l.name + ', ' + l.points + ' points';
  }
}
follow();
"#;
