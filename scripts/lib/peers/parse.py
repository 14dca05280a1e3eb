"""The parse half of scripts/peers: every real page kind, read by lxml, selectolax (lexbor) and
BeautifulSoup (on lxml) doing the extraction Statline's parser does on that page (every player
row and stat cell, every schedule row, every play), timed the way `statline bench parser` times
Statline: rounds of N pages, the median round reported as pages/s.

`run()` returns a row per page; `items` is the number of leaves extracted, on which every peer
must agree. scripts/peers runs it (through run.py).
"""

import base64
import codecs
import json
import statistics
import subprocess
import sys
import time
from functools import partial

import lxml.etree
import lxml.html
from bs4 import BeautifulSoup
from selectolax.lexbor import LexborHTMLParser

# --- shared helpers ---------------------------------------------------------------------------


def statbroadcast_decode(data):
    """The web service's encoding (STRUCTURE.md §5): ROT13, then base64, then UTF-8."""
    return base64.b64decode(codecs.decode(data.decode("ascii").strip(), "rot13"))


def lx_cells(tr):
    return [c.text_content().strip() for c in tr if c.tag in ("td", "th")]


def lx_href(node):
    hrefs = node.xpath(".//a/@href")
    return hrefs[0] if hrefs else None


def sx_cells(tr):
    return [c.text(strip=True) for c in tr.iter() if c.tag in ("td", "th")]


def sx_href(node):
    a = node.css_first("a")
    return a.attributes.get("href") if a is not None else None


def bs_cells(tr):
    return [c.get_text(strip=True) for c in tr.find_all(["td", "th"], recursive=False)]


def bs_href(node):
    a = node.find("a")
    return a.get("href") if a is not None else None


def bs(data):
    return BeautifulSoup(data, "lxml")


# --- stats.ncaa.org contest box score: line score, then every player row of every stat table ---


def contest_lxml(data):
    doc = lxml.html.document_fromstring(data)
    out = [lx_cells(tr) for t in doc.xpath("(//table)[position() <= 2]") for tr in t.iter("tr")]
    for t in doc.xpath("//table[contains(concat(' ', @class, ' '), ' dataTable ')]"):
        out += [(lx_cells(tr), lx_href(tr)) for tr in t.xpath("./tbody/tr")]
    return out


def contest_selectolax(data):
    doc = LexborHTMLParser(data)
    out = [sx_cells(tr) for t in doc.css("table")[:2] for tr in t.css("tr")]
    for t in doc.css("table.dataTable"):
        out += [(sx_cells(tr), sx_href(tr)) for tr in t.css("tbody > tr")]
    return out


def contest_bs(data):
    doc = bs(data)
    out = [bs_cells(tr) for t in doc.find_all("table", limit=2) for tr in t.find_all("tr")]
    for t in doc.select("table.dataTable"):
        out += [(bs_cells(tr), bs_href(tr)) for tr in t.select("tbody > tr")]
    return out


# --- schedules and lists: every row of the schedule table, every team link ---------------------


def table_rows_lxml(xpath, data):
    """Every row of the first table `xpath` finds: its cells and its first link."""
    doc = lxml.html.document_fromstring(data)
    return [(lx_cells(tr), lx_href(tr)) for tr in doc.xpath(f"({xpath})[1]//tr")]


def table_rows_selectolax(css, data):
    return [(sx_cells(tr), sx_href(tr)) for tr in LexborHTMLParser(data).css_first(css).css("tr")]


def table_rows_bs(css, data):
    return [(bs_cells(tr), bs_href(tr)) for tr in bs(data).select_one(css).find_all("tr")]


def every_row_lxml(data):
    """Every row of every table (a play-by-play's periods, a scoreboard's games): cells, first link."""
    return [(lx_cells(tr), lx_href(tr)) for tr in lxml.html.document_fromstring(data).xpath("//tr")]


def every_row_selectolax(data):
    return [(sx_cells(tr), sx_href(tr)) for tr in LexborHTMLParser(data).css("tr")]


def every_row_bs(data):
    return [(bs_cells(tr), bs_href(tr)) for tr in bs(data).find_all("tr")]


EVERY_ROW = {"lxml": every_row_lxml, "selectolax": every_row_selectolax, "BeautifulSoup": every_row_bs}


def table_rows(xpath, css):
    """The schedule pages' extraction, for each peer: the table by XPath (lxml) or CSS."""
    return {"lxml": partial(table_rows_lxml, xpath), "selectolax": partial(table_rows_selectolax, css),
            "BeautifulSoup": partial(table_rows_bs, css)}


def team_list_lxml(data):
    doc = lxml.html.document_fromstring(data)
    return [(a.text_content().strip(), a.get("href")) for a in doc.xpath("//a[starts-with(@href, '/teams/')]")]


def team_list_selectolax(data):
    return [(a.text(strip=True), a.attributes.get("href")) for a in LexborHTMLParser(data).css("a[href^='/teams/']")]


def team_list_bs(data):
    return [(a.get_text(strip=True), a.get("href")) for a in bs(data).select("a[href^='/teams/']")]


def calendar_lxml(data):
    doc = lxml.html.document_fromstring(data)
    return [(lx_cells(tr), tr.xpath(".//a/@href")) for tr in doc.xpath("//table[@id='eventCalendar']/tbody/tr")]


def calendar_selectolax(data):
    rows = LexborHTMLParser(data).css("table#eventCalendar > tbody > tr")
    return [(sx_cells(tr), [a.attributes.get("href") for a in tr.css("a")]) for tr in rows]


def calendar_bs(data):
    rows = bs(data).select("table#eventCalendar > tbody > tr")
    return [(bs_cells(tr), [a.get("href") for a in tr.find_all("a")]) for tr in rows]


# --- StatBroadcast web service: the broadcast view's status bar; the event metadata -----------


def view_lxml(data):
    bar = lxml.html.fragment_fromstring(statbroadcast_decode(data), create_parent="div").xpath(
        "//*[contains(concat(' ', @class, ' '), ' statusbar ')]"
    )[0]

    def first(cls):
        return bar.xpath(f".//*[contains(concat(' ', @class, ' '), ' {cls} ')]")[0].text_content().strip()

    scores = [s.text_content().strip() for s in bar.xpath(".//*[contains(concat(' ', @class, ' '), ' sb-teamscore ')]")]
    return [first("sb-teamnameV"), first("sb-teamnameH"), scores[0], scores[1], first("sb-statusbar-clock")]


def view_selectolax(data):
    bar = LexborHTMLParser(statbroadcast_decode(data)).css_first(".statusbar")
    scores = [s.text(strip=True) for s in bar.css(".sb-teamscore")]
    first = [bar.css_first(c).text(strip=True) for c in (".sb-teamnameV", ".sb-teamnameH")]
    return first + scores[:2] + [bar.css_first(".sb-statusbar-clock").text(strip=True)]


def view_bs(data):
    bar = bs(statbroadcast_decode(data)).select_one(".statusbar")
    scores = [s.get_text(strip=True) for s in bar.select(".sb-teamscore")]
    first = [bar.select_one(c).get_text(strip=True) for c in (".sb-teamnameV", ".sb-teamnameH")]
    return first + scores[:2] + [bar.select_one(".sb-statusbar-clock").get_text(strip=True)]


def event_lxml(data):
    root = lxml.etree.fromstring(statbroadcast_decode(data), lxml.etree.XMLParser(resolve_entities=False))
    event = root.find("event")
    return [dict(event.attrib)] + [(c.tag, c.text) for c in event]


def event_bs(data):
    event = BeautifulSoup(statbroadcast_decode(data), "xml").find("event")
    return [dict(event.attrs)] + [(c.name, c.string) for c in event.find_all(recursive=False)]


# --- StatCrew game XML: venue, status, teams with line scores and every player's stats, plays --


def statcrew_lxml(data):
    """Any StatCrew root (`<lcgame>`, `<bbgame>`, `<bsgame>`, …): the status may be missing or last."""
    root = lxml.etree.fromstring(data, lxml.etree.XMLParser(resolve_entities=False, no_network=True))
    out = [dict(root.find("venue").attrib)]
    status = root.find("status")
    if status is not None:
        out.append(dict(status.attrib))
    for team in root.iterfind("team"):
        out.append(dict(team.attrib))
        out += [dict(e.attrib) for e in team.iterfind("linescore/*")]
        for player in team.iterfind("player"):
            out.append((dict(player.attrib), [(s.tag, dict(s.attrib)) for s in player]))
    out += [dict(p.attrib) for p in root.iterfind("plays//play")]
    out += [dict(n.attrib) for n in root.iterfind("plays//narrative")]
    return out


def statcrew_bs(data):
    root = BeautifulSoup(data, "xml").find()
    out = [dict(root.find("venue", recursive=False).attrs)]
    status = root.find("status", recursive=False)
    if status is not None:
        out.append(dict(status.attrs))
    for team in root.find_all("team", recursive=False):
        out.append(dict(team.attrs))
        out += [dict(e.attrs) for e in team.find("linescore").find_all(recursive=False)]
        for player in team.find_all("player", recursive=False):
            out.append((dict(player.attrs), [(s.name, dict(s.attrs)) for s in player.find_all(recursive=False)]))
    plays = root.find("plays", recursive=False)
    if plays is not None:
        out += [dict(p.attrs) for p in plays.find_all("play")]
        out += [dict(n.attrs) for n in plays.find_all("narrative")]
    return out


# --- ncaa.com JSON: every play of the play-by-play; every game of the scoreboard ---------------


def pbp_json(data):
    pbp = json.loads(data)["data"]["playbyplay"]
    out = [(t["teamId"], t["nameShort"], t["isHome"]) for t in pbp["teams"]]
    for period in pbp["periods"]:
        for stat in period["playbyplayStats"]:
            for play in stat["plays"]:
                out.append(
                    (period["periodNumber"], stat["teamId"], play["clock"], play["playText"], play["homeScore"], play["visitorScore"])
                )
    return out


def gql_basketball_pbp_json(data):
    """A flat basketball play-by-play: every entry is a play."""
    pbp = json.loads(data)["data"]["playbyplay"]
    out = [(t["teamId"], t["nameShort"], t["isHome"]) for t in pbp["teams"]]
    for period in pbp["periods"]:
        for play in period["playbyplayStats"]:
            out.append(
                (period["periodNumber"], play["clock"], play["visitorText"], play["homeText"], play["homeScore"],
                 play["visitorScore"])
            )
    return out


def gql_contests_json(data):
    out = []
    for contest in json.loads(data)["data"]["contests"]:
        out.append((contest["contestId"], contest["gameState"], contest["currentPeriod"], contest["startDate"],
                    contest["startTimeEpoch"], contest["sportUrl"]))
        for team in contest["teams"]:
            out.append((team["isHome"], team["seoname"], team["nameShort"], team["score"], team["isWinner"]))
    return out


def espn_json(data):
    out = []
    for event in json.loads(data)["events"]:
        competition = event["competitions"][0]
        out.append((event["id"], event["date"], event["status"]["type"]["state"], event["status"]["period"],
                    event["status"]["displayClock"]))
        for competitor in competition["competitors"]:
            out.append((competitor["homeAway"], competitor["team"]["id"], competitor["team"]["displayName"],
                        competitor["score"], [line.get("value") for line in competitor.get("linescores", [])]))
    return out


def casablanca_json(data):
    out = []
    for entry in json.loads(data)["games"]:
        game = entry["game"]
        out.append((game["url"], game["gameState"], game["startTime"], game["currentPeriod"], game["contestClock"]))
        for side in ("away", "home"):
            team = game[side]
            out.append((team["names"]["short"], team["score"], team["rank"], team["winner"]))
    return out


def size(value):
    """Every leaf of the extraction: what the peers must agree on."""
    if isinstance(value, dict):
        return sum(size(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(size(v) for v in value)
    return 1


VIEW_URL = (
    "https://stats.statbroadcast.com/interface/webservice/stats?data=ZXZlbnQ9NjUyNzM5JnhtbD1sYnN0LzY1MjczOS54bWwmeHNs"
    "PWJhc2ViYWxsL3NiLmJzZ2FtZS52aWV3cy5icm9hZGNhc3QueHNsJnNwb3J0PWJzZ2FtZSZmaWxldGltZT0tMSZ0eXBlPXN0YXRicm9hZGNhc3Qmc3Rh"
    "cnQ9dHJ1ZQ%3D%3D"
)

# page, its kind, the Statline arguments for `bench parser`, and each peer's extraction.
PAGES = [
    ("ncaa-stats/contest-6310104-individual-stats-mlax-final.html", "stats.ncaa.org box score", [],
     {"lxml": contest_lxml, "selectolax": contest_selectolax, "BeautifulSoup": contest_bs}),
    ("ncaa-stats/team-594020-schedule-mlax-2025.html", "stats.ncaa.org schedule", [],
     table_rows("//table", "table")),
    ("ncaa-stats/team-list-mlax-d1-2025.html", "stats.ncaa.org team list", [],
     {"lxml": team_list_lxml, "selectolax": team_list_selectolax, "BeautifulSoup": team_list_bs}),
    ("ncaa-stats/legacy-team-721-schedule-mlax-2016.html", "stats.ncaa.org legacy schedule", [],
     table_rows("//table[@class='mytable']", "table.mytable")),
    ("statbroadcast/events-schedule-msu.html", "StatBroadcast calendar", [],
     {"lxml": calendar_lxml, "selectolax": calendar_selectolax, "BeautifulSoup": calendar_bs}),
    ("statbroadcast/webservice-stats-652739.raw.txt", "StatBroadcast broadcast view (encoded)",
     ["--parser", "statbroadcast-broadcast-view", "--url", VIEW_URL],
     {"lxml": view_lxml, "selectolax": view_selectolax, "BeautifulSoup": view_bs}),
    ("statbroadcast/webservice-event-652739.raw.txt", "StatBroadcast event XML (encoded)",
     ["--parser", "statbroadcast-event", "--url",
      "https://stats.statbroadcast.com/interface/webservice/event/652739?data=dHlwZT1zdGF0YnJvYWRjYXN0"],
     {"lxml": event_lxml, "BeautifulSoup": event_bs}),
    ("statcrew/lcgame-mlax-iona-at-unc-2026-02-15-final.xml", "StatCrew game XML", [],
     {"lxml": statcrew_lxml, "BeautifulSoup": statcrew_bs}),
    ("statcrew/bbgame-mbb-msu-at-kentucky-2025-11-18-final.xml", "StatCrew basketball XML", [],
     {"lxml": statcrew_lxml, "BeautifulSoup": statcrew_bs}),
    ("statcrew/bsgame-mbase-indiana-at-unc-2026-02-14-g2.xml", "StatCrew baseball XML", [],
     {"lxml": statcrew_lxml, "BeautifulSoup": statcrew_bs}),
    ("statcrew/fbgame-duke-at-unc-2025-11-22.xml", "StatCrew football XML", [],
     {"lxml": statcrew_lxml, "BeautifulSoup": statcrew_bs}),
    ("statcrew/sogame-msoc-washington-vs-ncstate-2025-12-15.xml", "StatCrew soccer XML", [],
     {"lxml": statcrew_lxml, "BeautifulSoup": statcrew_bs}),
    ("statcrew/vbgame-wvb-miami-at-unc-2025-11-29.xml", "StatCrew volleyball XML", [],
     {"lxml": statcrew_lxml, "BeautifulSoup": statcrew_bs}),
    ("ncaa-stats/pbp-6479639-mbb-texastech-at-illinois.html", "stats.ncaa.org basketball play-by-play",
     ["--parser", "ncaa-stats-contest-pbp", "--url", "https://stats.ncaa.org/contests/6479639/play_by_play"],
     EVERY_ROW),
    ("ncaa-stats/scoreboard-mbb-d1-2025-11-11.html", "stats.ncaa.org basketball scoreboard",
     ["--url", "https://stats.ncaa.org/season_divisions/18703/scoreboards?game_date=11/11/2025"],
     EVERY_ROW),
    ("ncaa-stats/team-list-mba-d1-2026.html", "stats.ncaa.org baseball team list",
     ["--url", "https://stats.ncaa.org/team/inst_team_list?academic_year=2026&conf_id=-1&division=1&sport_code=MBA"],
     {"lxml": team_list_lxml, "selectolax": team_list_selectolax, "BeautifulSoup": team_list_bs}),
    ("ncaa-data/gql-pbp-mbb-6351148-ucriverside-at-hawaii-trimmed.json", "ncaa.com GraphQL basketball play-by-play (JSON)",
     [], {"json": gql_basketball_pbp_json}),
    ("ncaa-data/gql-scoreboard-mbb-d1-2026-03-20-ncaa-tournament-trimmed.json", "ncaa.com GraphQL scoreboard (JSON)",
     ["--parser", "ncaa-gql-contests", "--url",
      "https://sdataprod.ncaa.com/?meta=GetContests_web&variables=%7B%22contestDate%22%3A%2203%2F20%2F2026%22%2C%22division%22%3A1%2C%22sportCode%22%3A%22MBB%22%2C%22week%22%3Anull%7D"],
     {"json": gql_contests_json}),
    ("espn/espn-scoreboard-mbb-2025-11-26-live.json", "ESPN scoreboard (JSON)",
     ["--url", "https://site.api.espn.com/apis/site/v2/sports/basketball/mens-college-basketball/scoreboard?dates=20251126"],
     {"json": espn_json}),
    ("ncaa-data/gql-pbp-mla-6599987-final-ot.json", "ncaa.com GraphQL play-by-play (JSON)", [],
     {"json": pbp_json}),
    ("ncaa-data/casablanca-scoreboard-mbb-d1-2025-02-28.json", "ncaa.com casablanca scoreboard (JSON)", [],
     {"json": casablanca_json}),
]


def rate(extract, data, rounds, per_round):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(per_round):
            extract(data)
        times.append(time.perf_counter() - start)
    return per_round / statistics.median(times)


def statline_rate(statline, path, args, rounds, per_round):
    """`statline bench parser` on the page: its pages/s for the whole path (parse + normalize +
    validate) and for the parse stage alone (the page read into its records, the work a peer's
    extraction does)."""
    out = subprocess.run(
        [statline, "bench", "parser", "--page", path, "--rounds", str(rounds), "--pages-per-round", str(per_round)] + args,
        check=True, capture_output=True, text=True).stdout

    def figure(prefix):
        line = next(l for l in out.splitlines() if l.startswith(prefix))
        return float(line.split(":")[1].split()[0])

    return figure("parse + normalize + validate"), figure("parse alone")


def run(statline, folder, rounds, per_round, log=print):
    """One row per page: Statline's rate and each peer's; fails when the peers' extractions differ."""
    rows = []
    for path, kind, statline_args, peers in PAGES:
        data = open(f"{folder}/{path}", "rb").read()
        row = {"page": path, "kind": kind, "bytes": len(data), "peers": {}, "items": None}
        row["statline"], row["statline_parse"] = statline_rate(
            statline, f"{folder}/{path}", statline_args, rounds, per_round)
        for peer, extract in peers.items():
            items = size(extract(data))
            if row["items"] not in (None, items):
                raise SystemExit(f"peers: the extractions differ on {path}: {peer} has {items} items, not {row['items']}")
            row["items"] = items
            # Slow peers (BeautifulSoup) get fewer pages per round: about half a second a round.
            probe = time.perf_counter()
            extract(data)
            pages = max(1, min(per_round, int(0.5 / max(time.perf_counter() - probe, 1e-6))))
            row["peers"][peer] = rate(extract, data, rounds, pages)
        log(f"  {kind}: Statline {row['statline']:.0f} pages/s (parse alone {row['statline_parse']:.0f}), "
            + ", ".join(f"{k} {v:.0f}" for k, v in row["peers"].items()))
        rows.append(row)
    return rows
