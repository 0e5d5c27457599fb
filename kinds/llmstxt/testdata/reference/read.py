# Reads a JSON array of llms.txt texts on stdin and prints, for each, what
# the reference parser (miniparse.py) reads: title, summary, info and the
# sections with their links, or the error it raises.
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from miniparse import parse_llms_txt

out = []
for txt in json.load(sys.stdin):
    try:
        d = parse_llms_txt(txt)
        d['sections'] = [[k, [[l['title'], l['url'], l['desc']] for l in v]] for k, v in d['sections'].items()]
        out.append(d)
    except Exception as e:
        out.append({'error': type(e).__name__ + ': ' + str(e)})
json.dump(out, sys.stdout)
