"""Times evalr.core.score_values on validated values, for `npm run bench:scores`.

argv: the pydantic model's source (defining the class named by argv[2]), the class name, the
scores' type name, a JSON file of values, and the number of rounds. Each value is validated by
the model first and mapped as its JSON, as the libraries keep feedback. Prints one JSON line:
the fastest round's milliseconds and the number of scores one round gives.
"""

import json
import sys
import time

from evalr.core import score_values

source, class_name, type_name, values_path, rounds = sys.argv[1:6]
namespace: dict[str, object] = {}
exec(source, namespace)  # the bench's own generated declaration
model = namespace[class_name]
with open(values_path, encoding="utf-8") as file:
    raw = json.load(file)
values = [model.model_validate(value).model_dump(mode="json") for value in raw]

score_values(model, values[0], type_name=type_name)  # warm evalr's cached configs
best = float("inf")
count = 0
for _ in range(int(rounds)):
    started = time.perf_counter()
    count = 0
    for value in values:
        count += len(score_values(model, value, type_name=type_name))
    best = min(best, (time.perf_counter() - started) * 1000)
print(json.dumps({"ms": best, "scores": count}))
