"""aioapns (PyPI) sending N alerts to `statline bench apns-fake`, the loopback APNs Statline's
own push benchmark sends to, on the same machine: the peer row of issue 52's push benchmark.

Usage: apns.py PORT CA_FILE KEY_FILE KEY_ID TEAM_ID COUNT [CONNECTIONS] [CONCURRENCY]
Prints one JSON line: {"peer": "aioapns", "version", "pushes", "seconds", "per_second", "failed"}.
aioapns has no setting for its host, so its protocol class is pointed at 127.0.0.1:PORT, and it is
given an SSL context that trusts the fake's CA; nothing else is changed.
"""
import asyncio
import json
import ssl
import sys
import time
from importlib.metadata import version

from aioapns import APNs, NotificationRequest, PushType
from aioapns import connection


async def main(port, ca, key, key_id, team_id, count, connections, concurrency):
    connection.APNsProductionClientProtocol.APNS_SERVER = "127.0.0.1"
    connection.APNsTLSClientProtocol.APNS_PORT = port
    context = ssl.create_default_context(cafile=ca)
    # aioapns 4 takes the key's text (3.x took its path).
    key_text = open(key).read() if int(version("aioapns").split(".")[0]) >= 4 else key
    client = APNs(
        key=key_text, key_id=key_id, team_id=team_id, topic="com.example.scores", max_connections=connections,
        ssl_context=context, use_sandbox=False)
    failed = 0
    gate = asyncio.Semaphore(concurrency)

    async def one(index):
        nonlocal failed
        async with gate:
            request = NotificationRequest(
                device_token="%064x" % (index + 1),
                message={"aps": {"alert": {"body": "GOAL Duke 5, North Carolina 3 · 4th 02:11 · Smith"},
                                 "thread-id": "game:1", "sound": "default"},
                         "gameId": "game:1", "sport": "lacrosse-men", "eventId": "evt_1"},
                time_to_live=300, priority=10, collapse_key="game:1", push_type=PushType.ALERT)
            result = await client.send_notification(request)
            if not result.is_successful:
                failed += 1

    await one(0)  # the connection and its token first, as Statline's first push does
    start = time.perf_counter()
    await asyncio.gather(*(one(index) for index in range(1, count)))
    seconds = time.perf_counter() - start
    print(json.dumps({"peer": "aioapns", "version": version("aioapns"), "pushes": count - 1,
                      "seconds": round(seconds, 3), "per_second": round((count - 1) / seconds),
                      "failed": failed}))


if __name__ == "__main__":
    args = sys.argv[1:]
    asyncio.run(main(int(args[0]), args[1], args[2], args[3], args[4], int(args[5]),
                     int(args[6]) if len(args) > 6 else 2, int(args[7]) if len(args) > 7 else 64))
