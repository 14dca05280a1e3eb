#!/usr/bin/env python3
"""Builds Sources/StatlineCanonical/Resources/teams.tsv, the team registry's seed, from the public
reference data in ../shared/reference/teams/ (see its README for sources and caveats).

One line per school with an NCAA org id (ncaa-schools.csv), tab-separated:
  org id, NCAA name, ESPN id, ESPN abbreviation, names (|), season-team ids (|), StatBroadcast gid
Names are the other names the sources print for the school: ESPN's display name and location,
and the NCAA's earlier names (from the crosswalk's older season). Joins are by exact name or by
id, never by a fuzzy match; what does not join is left out and counted on stderr.

Usage: scripts/teams/seed.py [REFERENCE_DIR [OUT]]
  (defaults: ../shared/reference/teams, Sources/StatlineCanonical/Resources/teams.tsv; a test writes
  OUT elsewhere and compares it with the committed file)
"""
import csv
import glob
import json
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
ref = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "reference", "teams")
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "Sources", "StatlineCanonical", "Resources", "teams.tsv")


def slug(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("&", "")).strip("-")


schools = {}
for row in csv.DictReader(open(os.path.join(ref, "ncaa-schools.csv"), encoding="utf-8")):
    name = row["school_name"].strip()
    if name in ("Open school",) or "High School" in name:
        continue
    schools[row["school_id"]] = {"name": name, "espn": "", "abbr": "", "names": [], "seasons": [], "gid": ""}
by_name = {}
for org, school in schools.items():
    by_name.setdefault(school["name"], []).append(org)
unique = {name: orgs[0] for name, orgs in by_name.items() if len(orgs) == 1}

# The crosswalks: the newest season's NCAA name joins the org id; an older season's row joins by
# its ESPN id, and its NCAA name (when different) is an earlier name.
espn_org = {}
skipped = 0
for kind in ("mbb", "wbb"):
    rows = list(csv.DictReader(open(os.path.join(ref, f"ncaa-espn-crosswalk-{kind}.csv"), encoding="utf-8")))
    rows.sort(key=lambda r: r["season"], reverse=True)
    for row in rows:
        org = unique.get(row["ncaa_team"]) or espn_org.get(row["espn_team_id"])
        if org is None:
            skipped += 1
            continue
        school = schools[org]
        espn_org.setdefault(row["espn_team_id"], org)
        school["espn"] = school["espn"] or row["espn_team_id"]
        school["abbr"] = school["abbr"] or row["espn_abbreviation"]
        for name in (row["espn_display_name"], row["espn_location"], row["ncaa_team"]):
            if name and name != school["name"] and name not in school["names"]:
                school["names"].append(name)
        if row["ncaa_team_id"] and row["ncaa_team_id"] not in school["seasons"]:
            school["seasons"].append(row["ncaa_team_id"])

# StatBroadcast gids: by the slug of a name the school goes by, or the display name given.
gids = json.load(open(os.path.join(ref, "statbroadcast-gids.json"), encoding="utf-8"))
extra = gids.pop("_extra_schools", {})
by_slug = {}
for org, school in schools.items():
    for name in [school["name"]] + school["names"]:
        by_slug.setdefault(slug(name), set()).add(org)
unjoined = 0
for key, gid in list(gids.items()) + [(slug(name), gid) for name, gid in extra.items()]:
    orgs = by_slug.get(key, set())
    if len(orgs) == 1:
        org = next(iter(orgs))
        schools[org]["gid"] = schools[org]["gid"] or gid
    else:
        unjoined += 1

lines = []
for org in sorted(schools, key=int):
    s = schools[org]
    fields = [org, s["name"], s["espn"], s["abbr"], "|".join(s["names"]), "|".join(s["seasons"]), s["gid"]]
    if any("\t" in f or "\n" in f for f in fields):
        raise SystemExit(f"org {org}: a field holds a tab or a newline")
    lines.append("\t".join(fields))

# A data file read at start (TeamSeed.swift), one school a line, no header.
with open(out, "w", encoding="utf-8", newline="\n") as f:
    f.write("\n".join(lines) + "\n")
print(f"{len(lines)} schools; {sum(1 for s in schools.values() if s['espn'])} with ESPN ids; "
      f"{sum(1 for s in schools.values() if s['gid'])} with StatBroadcast gids; "
      f"{skipped} crosswalk rows and {unjoined} gids not joined", file=sys.stderr)
