"""The push half of scripts/cluster-check, counted from the loopback fakes' own log.

Reads, from the cluster check's folder: devices.jsonl (what was registered), events.rows (the store's
event log: sequence|id|game|type|away|home) and fakes/push.log (LoopbackPushLog: every push APNs and
FCM accepted, and every connection that closed). Checks that every device got the alerts it should:

- each one concerns a team it follows, of an event in the log that alerts (a goal, a score, a final);
- for every game of its team, the last such event reached it, and every earlier one too unless a
  newer alert of that game replaced it before it went out (the outbox keeps one slot per device and
  game); how many were replaced is printed, and none may be outside the kill's window. Events of a
  game stored by one poll (one store version: two goals between two polls) are due as one alert,
  the newest: they fill the device's slot together;
- none reached it twice, unless the first copy went out on a connection of the killed worker (one
  that closed at the kill) before the kill: an answer that worker never read;
- none arrived after an older one of the same game (a newer score never before an older one);
- none was accepted after the expiry its request carried.

Usage: cluster_push_check.py FOLDER KILL_AT CLAIM_LEASE (how long the killed worker's claims stay held)
"""

import collections
import json
import sys

work, kill_at, lease = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
ALERTING = {"game.goal", "game.scored", "game.final"}

team_of = {}
for line in open(f"{work}/devices.jsonl"):
    device = json.loads(line)
    team_of[device["token"].lower()] = device["teams"][0]

events = {}
# The alerting events of one game committed together (one poll: its store version) reach a device
# as one alert, the newest (they share the device's slot for the game before any is sent).
newest = {}  # (game, version) -> (sequence, id, teams)
for line in open(f"{work}/events.rows"):
    sequence, version, event_id, game, kind, away, home = line.rstrip("\n").split("|")
    events[event_id] = (int(sequence), game, kind, {away, home})
    if kind in ALERTING and newest.get((game, version), (0,))[0] < int(sequence):
        newest[(game, version)] = (int(sequence), event_id, {away, home} - {""})
alerting = collections.defaultdict(list)  # team -> [(sequence, id, game)]
for (game, _), (sequence, event_id, teams) in sorted(newest.items()):
    for team in teams:
        alerting[team].append((sequence, event_id, game))

received = collections.defaultdict(list)  # token -> [(t, event id, game, api, connection, expires)]
closed = {}  # (api, connection) -> t
apis = collections.Counter()
for line in open(f"{work}/fakes/push.log"):
    ms, what, api, token, game, event_id, connection, expires = line.rstrip("\n").split("\t")
    t = int(ms) / 1000
    if what == "closed":
        closed.setdefault((api, connection), t)
        continue
    apis[api] += 1
    received[token.lower()].append((t, event_id, game, api, connection, None if expires == "-" else float(expires)))


def short(token):
    return token if len(token) <= 20 else f"{token[:10]}…{token[-8:]}"


# The killed worker's connections: those that closed within a few seconds of the kill (the others
# stay open until the workers are stopped at the end).
killed = {key for key, t in closed.items() if kill_at - 0.5 <= t <= kill_at + 5}
failures = []
wrong, repeats, excused, late, disorder, replaced, replaced_outside, missing_last = [], 0, 0, [], [], 0, [], []
should = 0
for token, team in team_of.items():
    wanted = alerting.get(team, [])
    should += len(wanted)
    got = sorted(received.get(token, []))
    first = {}
    for t, event_id, game, api, connection, expires in got:
        event = events.get(event_id)
        if event is None or event[2] not in ALERTING or team not in event[3] or event[1] != game:
            wrong.append((short(token), event_id, game))
            continue
        if expires is not None and t > expires + 0.001:
            late.append((short(token), event_id, round(t - expires, 3)))
        if event_id in first:
            repeats += 1
            before_t, before_api, before_connection = first[event_id]
            if (before_api, before_connection) in killed and before_t <= kill_at + 0.5:
                excused += 1
            else:
                failures.append(f"{short(token)} got {event_id} twice, the first on {before_api} connection "
                                f"{before_connection} at {before_t:.3f}, not one of the killed worker's")
            continue
        first[event_id] = (t, api, connection)
    # Order: per game, the first arrivals' event sequences only grow.
    by_game = collections.defaultdict(list)
    for event_id, (t, _, _) in first.items():
        by_game[events[event_id][1]].append((t, events[event_id][0], event_id))
    for game, arrivals in by_game.items():
        arrivals.sort()
        for (ta, sa, ea), (tb, sb, eb) in zip(arrivals, arrivals[1:]):
            if sb < sa:
                disorder.append((short(token), ea, eb))
    # Every alert, or a newer one of its game that replaced it; the last of each game always.
    per_game = collections.defaultdict(list)
    for sequence, event_id, game in wanted:
        per_game[game].append((sequence, event_id))
    for game, items in per_game.items():
        last_sequence, last_id = max(items)
        if last_id not in first:
            missing_last.append((short(token), game, last_id))
        for sequence, event_id in items:
            if event_id in first:
                continue
            newer = [first[e][0] for s, e in items if s > sequence and e in first]
            if newer:
                replaced += 1
                if not (kill_at - 5 <= min(newer) <= kill_at + lease + 15):
                    replaced_outside.append((short(token), event_id))
            # else: counted among missing_last when it is the last; an earlier one with no newer
            # delivered is lost.
            elif event_id != last_id:
                failures.append(f"{short(token)} never got {event_id} of {game}, nor a newer alert of that game")

# What the kill cut: pushes on the killed worker's connections in the second before it, and alerts
# planned before the kill (an in-game alert's request expires 300 s after its planning) that were
# accepted only after the killed worker's claims lapsed: its claims, sent by the others.
cut = sum(1 for pushes in received.values() for t, _, _, api, connection, _ in pushes
          if (api, connection) in killed and kill_at - 1 <= t <= kill_at + 0.5)
recovered = sum(1 for pushes in received.values() for t, _, _, _, _, expires in pushes
                if expires is not None and expires - 300 < kill_at and t > kill_at + lease - 1)
print(f"the kill: the killed worker's {len(killed)} connections carried {cut} pushes in the second before it; "
      f"{recovered} alerts planned before it were accepted after its claims lapsed ({lease:.0f} s)")
if cut == 0:
    failures.append("the killed worker was sending nothing when it was killed: the kill tested nothing")

api_tokens = [t for t in team_of if t.startswith("fefefe") or t.startswith("api-android-")]
api_got = {short(t): len({e for _, e, _, _, _, _ in received.get(t, [])}) for t in api_tokens}
print(f"the phones registered through POST /v1/devices: {api_got} alerts each")
if len(api_tokens) != 2 or not all(api_got.values()):
    failures.append(f"the iPhone and the Android phone registered through the API got {api_got}")

delivered = sum(len(v) for v in received.values())
print(f"push: {len(team_of)} devices, {should} alerts they should get; the fakes accepted {delivered} "
      f"({apis['apns']} APNs, {apis['fcm']} FCM); {replaced} replaced by a newer alert of their game before "
      f"they went out; {repeats} repeats ({excused} of a copy in flight on the killed worker's "
      f"{len(killed)} connections); {len(closed)} connections closed in all")
if not team_of or not should:
    failures.append("no alert was due: the check checked nothing")
if wrong:
    failures.append(f"{len(wrong)} pushes a device should not get, e.g. {wrong[:3]}")
if missing_last:
    failures.append(f"{len(missing_last)} devices never got their game's last alert, e.g. {missing_last[:3]}")
if disorder:
    failures.append(f"{len(disorder)} alerts after a newer one of their game, e.g. {disorder[:3]}")
if late:
    failures.append(f"{len(late)} pushes accepted after their expiry, e.g. {late[:3]}")
if replaced_outside:
    failures.append(f"{len(replaced_outside)} alerts replaced away from the kill (the senders fell behind), "
                    f"e.g. {replaced_outside[:3]}")
if apis["apns"] == 0 or apis["fcm"] == 0:
    failures.append(f"a sender sent nothing: {dict(apis)}")
if failures:
    print("FAILED (push):\n  " + "\n  ".join(failures[:20]))
    sys.exit(1)
print("cluster check of push passed")
