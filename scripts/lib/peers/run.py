"""scripts/peers: Statline next to lxml, selectolax, BeautifulSoup and Scrapy, in one run.

Usage: run.py STATLINE FIXTURES WORKDIR [--parse-only | --cycle-only | --push-only] [--targets N]
              [--cadence S] [--cycles K] [--rounds R] [--pages-per-round P] [--pushes N]
Prints the README's peer table (Markdown) at the end.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import parse  # noqa: E402

STATCREW = "statcrew/lcgame-mlax-iona-at-unc-2026-02-15-final.xml"


def log(text):
    print(text, file=sys.stderr, flush=True)


def parse_rows(args):
    log(f"parse: every real page kind, {args.rounds} rounds of up to {args.pages_per_round} pages, median round")
    rows = parse.run(args.statline, args.fixtures, args.rounds, args.pages_per_round, log=log)
    lines = [
        "| page (real) | extracted | Statline | Statline parse alone | lxml | selectolax | BeautifulSoup | Python json "
        "| Statline ÷ lxml | parse alone ÷ lxml |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        peers = row["peers"]
        peer = peers["lxml"] if "lxml" in peers else peers["json"]
        ratio = row["statline"] / peer
        parse_ratio = row["statline_parse"] / peer

        def cell(name):
            return f"{peers[name]:,.0f}" if name in peers else "n/a"

        lines.append(
            f"| {row['kind']} ({row['bytes'] / 1024:.0f} KB) | {row['items']:,} values | {row['statline']:,.0f} "
            f"| {row['statline_parse']:,.0f} | {cell('lxml')} | {cell('selectolax')} | {cell('BeautifulSoup')} "
            f"| {cell('json')} | **{ratio:.2f}**{'' if 'lxml' in peers else ' (÷ json)'} "
            f"| {parse_ratio:.2f}{'' if 'lxml' in peers else ' (÷ json)'} |")
    return lines


def start_site(args):
    site = subprocess.Popen(
        [args.statline, "bench", "serve", "--targets", str(args.targets), "--cadence", str(args.cadence),
         "--page", f"{args.fixtures}/{STATCREW}"],
        stdout=subprocess.PIPE, text=True)
    url = site.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        site.kill()
        raise SystemExit("peers: the benchmark site did not start")
    return site, url


def statline_cycle(args, url):
    out = subprocess.run(
        [args.statline, "bench", "cycle", "--site", url, "--targets", str(args.targets), "--cadence",
         str(args.cadence), "--cycles", str(args.cycles), "--page", f"{args.fixtures}/{STATCREW}"],
        check=True, capture_output=True, text=True).stdout
    cpu = float(re.search(r"CPU per cycle: ([0-9.]+) s", out).group(1))
    rss = float(re.search(r"resident memory: .*?([0-9.]+) MiB max", out).group(1))
    polls = re.search(r"polls: (\d+) \((.*?)\), records written: (\d+)", out)
    return {"cpu_per_cycle": cpu, "peak_rss_mib": rss, "polls": int(polls.group(1)), "outcomes": polls.group(2),
            "records": int(polls.group(3))}


def scrapy_cycle(args, url):
    work = os.path.join(args.workdir, f"scrapy-{int(time.time())}")
    os.makedirs(work)
    out = subprocess.run(
        [sys.executable, os.path.join(os.path.dirname(__file__), "scrapy_cycle.py"), url, str(args.targets),
         str(args.cadence), str(args.cycles), work],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def cycle_rows(args):
    log(f"live cycle: {args.targets} copies of the real StatCrew XML, clock moving every {args.cadence:g} s, "
        f"{args.cycles} measured cycles after one warm-up (each contender in turn, one site)")
    site, url = start_site(args)
    try:
        ours = statline_cycle(args, url)
        log(f"  Statline: {ours}")
        theirs = scrapy_cycle(args, url)
        log(f"  Scrapy: {theirs}")
    finally:
        site.kill()
    share = lambda cpu: 100 * cpu / args.cadence  # noqa: E731
    return [
        "| live cycle (one site, same pages) | CPU per cycle | share of a core | per page | peak RSS |",
        "|---|---|---|---|---|",
        f"| Statline `bench cycle --page` | {ours['cpu_per_cycle']:.2f} s | {share(ours['cpu_per_cycle']):.1f} % "
        f"| {1000 * ours['cpu_per_cycle'] / args.targets:.1f} ms | {ours['peak_rss_mib']:.0f} MiB |",
        f"| Scrapy 2.19 (HTTP cache, SQLite pipeline) | {theirs['cpu_per_cycle']:.2f} s "
        f"| {share(theirs['cpu_per_cycle']):.1f} % | {1000 * theirs['cpu_per_cycle'] / args.targets:.1f} ms "
        f"| {theirs['peak_rss_mib']:.0f} MiB |",
        f"| Statline ÷ Scrapy | **{ours['cpu_per_cycle'] / theirs['cpu_per_cycle']:.2f}** | | "
        f"| **{ours['peak_rss_mib'] / theirs['peak_rss_mib']:.2f}** |",
    ]


def push_rows(args):
    log(f"push: {args.pushes} alerts to one loopback APNs (`statline bench apns-fake`, its own process), "
        "Statline (`bench push --apns`: evaluator, SQLite outbox, sender) and aioapns (send only) in turn")
    files = {name: os.path.join(args.workdir, name) for name in ("apns.port", "apns-ca.pem", "AuthKey.p8")}
    fake = subprocess.Popen(
        [args.statline, "bench", "apns-fake", "--port-file", files["apns.port"], "--ca-file", files["apns-ca.pem"],
         "--key-file", files["AuthKey.p8"]], stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if os.path.exists(files["apns.port"]) and open(files["apns.port"]).read().strip():
                break
            time.sleep(0.1)
        port = int(open(files["apns.port"]).read())

        def statline():
            out = subprocess.run(
                [args.statline, "bench", "push", "--devices", str(args.pushes), "--rounds", "1", "--apns",
                 f"https://127.0.0.1:{port}", "--apns-ca", files["apns-ca.pem"], "--key-file", files["AuthKey.p8"]],
                check=True, capture_output=True, text=True).stdout
            log("  Statline: " + " ".join(out.split("\n")[1:2]))
            return float(re.search(r"([0-9]+) pushes/s", out).group(1))

        def aioapns():
            out = subprocess.run(
                [sys.executable, os.path.join(os.path.dirname(__file__), "apns.py"), str(port), files["apns-ca.pem"],
                 files["AuthKey.p8"], "BENCH12345", "TEAM123456", str(args.pushes), "2", "64"],
                check=True, capture_output=True, text=True).stdout
            result = json.loads(out.strip().splitlines()[-1])
            log(f"  aioapns: {result}")
            return result

        ours = [statline()]
        theirs = aioapns()
        ours.append(statline())
    finally:
        fake.terminate()
        fake.wait()
    best = max(ours)
    return [
        "| push (one loopback APNs, its own process) | pushes/s |",
        "|---|---|",
        f"| Statline `bench push --apns` (goal → evaluator → SQLite outbox → sender; two runs) "
        f"| {ours[0]:.0f} / {ours[1]:.0f} |",
        f"| aioapns {theirs['version']} (send only, 2 connections, 64 at once) | {theirs['per_second']:.0f} |",
        f"| Statline ÷ aioapns | **{best / theirs['per_second']:.2f}** (goal ≥ 3) |",
    ]


def main():
    options = argparse.ArgumentParser()
    options.add_argument("statline")
    options.add_argument("fixtures")
    options.add_argument("workdir")
    options.add_argument("--parse-only", action="store_true")
    options.add_argument("--cycle-only", action="store_true")
    options.add_argument("--push-only", action="store_true")
    options.add_argument("--pushes", type=int, default=20000)
    options.add_argument("--targets", type=int, default=1000)
    options.add_argument("--cadence", type=float, default=30)
    options.add_argument("--cycles", type=int, default=3)
    options.add_argument("--rounds", type=int, default=9)
    options.add_argument("--pages-per-round", type=int, default=100)
    args = options.parse_args()
    tables = []
    if not (args.cycle_only or args.push_only):
        tables.append(parse_rows(args))
    if not (args.parse_only or args.push_only):
        tables.append(cycle_rows(args))
    if not (args.parse_only or args.cycle_only):
        tables.append(push_rows(args))
    print("\n\n".join("\n".join(table) for table in tables))


if __name__ == "__main__":
    main()
