"""Answers robots.txt queries with Python's urllib.robotparser and, when it
is installed, protego. Input and output as in drivers.js."""
import json
import sys
import urllib.robotparser

data = json.load(open(sys.argv[1], encoding="utf-8"))
out = {}

parsers = []
for text in data["files"]:
    rp = urllib.robotparser.RobotFileParser()
    rp.parse(text.splitlines())
    rp.modified()
    parsers.append(rp)
out["urllib.robotparser"] = [parsers[q["file"]].can_fetch(q["agent"], q["url"]) for q in data["queries"]]

try:
    from protego import Protego
    ps = [Protego.parse(text) for text in data["files"]]
    out["protego"] = [ps[q["file"]].can_fetch(q["url"], q["agent"]) for q in data["queries"]]
except ImportError as e:
    sys.stderr.write("protego: %s\n" % e)

json.dump(out, sys.stdout)
