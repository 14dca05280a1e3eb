"""The Scrapy peer of `statline bench cycle`: a spider that crawls the benchmark site's N game URLs
once per cycle, with Scrapy's HTTP cache on (RFC 2616 policy: a cached page without freshness
is revalidated with If-None-Match, so the spider sends conditional requests as Statline does),
reads each StatCrew game XML with Scrapy's selectors (the teams, every player's stats, every play)
and writes each item to SQLite through a pipeline (one upsert and commit per item, WAL).

Usage: scrapy_cycle.py BASE_URL TARGETS CADENCE CYCLES WORKDIR
Prints one JSON line: CPU seconds per measured cycle (after one warm-up cycle), items, peak RSS.
"""

import json
import resource
import sqlite3
import sys
import time

import scrapy
from scrapy import signals
from scrapy.crawler import CrawlerProcess
from scrapy.exceptions import DontCloseSpider


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class SQLitePipeline:
    @classmethod
    def from_crawler(cls, crawler):
        pipeline = cls()
        pipeline.crawler = crawler
        return pipeline

    def open_spider(self):
        self.db = sqlite3.connect(f"{self.crawler.spider.workdir}/scrapy.sqlite")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, json TEXT NOT NULL)")

    def close_spider(self):
        self.db.close()

    def process_item(self, item):
        with self.db:
            self.db.execute(
                "INSERT INTO games (id, json) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET json = excluded.json",
                (item["id"], json.dumps(item)))
        self.crawler.spider.items += 1
        return item


class CycleSpider(scrapy.Spider):
    name = "statline-peer-cycle"

    def __init__(self, base, targets, cadence, cycles, workdir, **kwargs):
        super().__init__(**kwargs)
        self.base, self.targets, self.cadence = base, int(targets), float(cadence)
        self.cycles, self.workdir = int(cycles), workdir
        self.cycle = 0
        self.items = 0
        self.marks = []
        self.waiting = False
        self.started = time.monotonic()

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.idle, signal=signals.spider_idle)
        return spider

    def requests(self):
        return [scrapy.Request(f"{self.base}/game/{700000 + i}.xml", dont_filter=True) for i in range(self.targets)]

    async def start(self):
        self.marks.append(cpu_seconds())
        for request in self.requests():
            yield request

    def idle(self):
        """A cycle's crawl is done: wait for the next cycle's start, then crawl again."""
        if self.cycle >= self.cycles:
            self.marks.append(cpu_seconds())
            return
        if not self.waiting:
            self.waiting = True
            from twisted.internet import reactor

            delay = self.started + (self.cycle + 1) * self.cadence - time.monotonic()
            reactor.callLater(max(delay, 0), self.next_cycle)
        raise DontCloseSpider

    def next_cycle(self):
        self.waiting = False
        self.cycle += 1
        self.marks.append(cpu_seconds())
        for request in self.requests():
            self.crawler.engine.crawl(request)

    def parse(self, response):
        game = response.xpath("/lcgame")
        teams = []
        for team in game.xpath("team"):
            teams.append({
                "team": team.attrib,
                "periods": [p.attrib for p in team.xpath("linescore/lineprd")],
                "players": [
                    {"player": player.attrib, "stats": {s.xpath("name()").get(): s.attrib for s in player.xpath("*")}}
                    for player in team.xpath("player")
                ],
            })
        yield {
            "id": response.url.rsplit("/", 1)[-1].removesuffix(".xml"),
            "venue": game.xpath("venue").attrib,
            "status": game.xpath("status").attrib,
            "teams": teams,
            "plays": [play.attrib for play in game.xpath("plays//play")],
        }


def main():
    base, targets, cadence, cycles, workdir = sys.argv[1:6]
    process = CrawlerProcess(settings={
        "BOT_NAME": "statline-peer",
        "USER_AGENT": "statline-peers-benchmark (loopback)",
        "ROBOTSTXT_OBEY": True,
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "HTTPCACHE_ENABLED": True,
        "HTTPCACHE_POLICY": "scrapy.extensions.httpcache.RFC2616Policy",
        "HTTPCACHE_DIR": f"{workdir}/httpcache",
        "ITEM_PIPELINES": {SQLitePipeline: 300},
        "DOWNLOAD_DELAY": 0,
    })
    crawler = process.create_crawler(CycleSpider)
    process.crawl(crawler, base=base, targets=targets, cadence=cadence, cycles=cycles, workdir=workdir)
    process.start()
    spider = crawler.spider
    measured = spider.marks[-1] - spider.marks[1]
    stats = crawler.stats.get_stats()
    print(json.dumps({
        "cpu_per_cycle": measured / spider.cycles,
        "warmup_cpu": spider.marks[1] - spider.marks[0],
        "items": spider.items,
        "responses": stats.get("downloader/response_count", 0),
        "not_modified": stats.get("downloader/response_status_count/304", 0),
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }))


if __name__ == "__main__":
    main()
