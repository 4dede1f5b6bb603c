"""Times evalr.core.score_values on validated values, for `npm run bench:scores`.

argv: a file of pydantic models' source, a JSON file of items ([class name, scores' type name,
value], the class defined by the source), and the number of rounds. Each value is validated by
its model first and mapped as its JSON, as the libraries keep feedback. Prints one JSON line:
the fastest round's milliseconds and the number of scores one round gives.
"""

import json
import sys
import time

from evalr.core import score_values

source_path, items_path, rounds = sys.argv[1:4]
namespace: dict[str, object] = {}
with open(source_path, encoding="utf-8") as file:
    exec(file.read(), namespace)  # the bench's own generated declarations
with open(items_path, encoding="utf-8") as file:
    raw = json.load(file)
items = []
for class_name, type_name, value in raw:
    model = namespace[class_name]
    items.append((model, type_name, model.model_validate(value).model_dump(mode="json")))

for model, type_name, value in items:  # warm evalr's cached configs
    score_values(model, value, type_name=type_name)
best = float("inf")
count = 0
for _ in range(int(rounds)):
    started = time.perf_counter()
    count = 0
    for model, type_name, value in items:
        count += len(score_values(model, value, type_name=type_name))
    best = min(best, (time.perf_counter() - started) * 1000)
print(json.dumps({"ms": best, "scores": count}))
