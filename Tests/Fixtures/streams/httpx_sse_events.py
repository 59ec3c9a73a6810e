"""The events httpx-sse's decoder reads from each stream of a corpus, for SSECorpusTests.

Reads a JSON list of {"bytes": BASE64, "chunk": N} from stdin and prints a JSON list, one
list of events per stream. The bytes are decoded as WHATWG's "UTF-8 decode" does (one
leading byte order mark dropped, invalid bytes replaced), then fed to httpx-sse's own line
and event decoders N characters at a time, as `EventSource.iter_sse` feeds them.

Where httpx-sse departs from the WHATWG rules, the rules decide, and the count of each
departure is printed to stderr so the test can show them:
- it dispatches an event at a blank line when no `data` line came, if an event type, an id
  or a retry was set (WHATWG dispatches nothing then): such events are dropped;
- it takes `retry` as Python's int() does (`+5`, ` 5`, `1_0`, non-ASCII digits): a retry
  line whose value is not ASCII digits is not passed to it.
"""

import base64
import json
import sys

from httpx_sse._decoders import SSEDecoder, SSELineDecoder

departures = {"dispatch without data": 0, "retry not ASCII digits": 0}


def events(raw: bytes, chunk: int):
    text = raw.decode("utf-8", "replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = SSELineDecoder()
    decoder = SSEDecoder()
    saw_data = False
    out = []

    def take(line):
        nonlocal saw_data
        if line and not line.startswith(":"):
            name, _, value = line.partition(":")
            if value.startswith(" "):
                value = value[1:]
            if name == "data":
                saw_data = True
            if name == "retry" and not (value and all("0" <= c <= "9" for c in value)):
                departures["retry not ASCII digits"] += 1
                return
        event = decoder.decode(line)
        if not line:
            dispatched, saw_data = saw_data, False
            if event is not None and not dispatched:
                departures["dispatch without data"] += 1
                return
        if event is not None:
            out.append({"event": event.event, "id": event.id or None, "data": event.data, "retry": event.retry})

    for start in range(0, len(text), chunk):
        for line in lines.decode(text[start : start + chunk]):
            take(line)
    for line in lines.flush():
        take(line)
    return out


corpus = json.load(sys.stdin)
json.dump([events(base64.b64decode(item["bytes"]), item["chunk"]) for item in corpus], sys.stdout)
print(json.dumps(departures), file=sys.stderr)
