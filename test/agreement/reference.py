"""The reference figures for test/agreement/reference.test.ts.

Reads the fixture datasets (JSON, written by the test), computes each figure with the reference
implementations (scikit-learn, scipy, statsmodels, krippendorff), and writes them as JSON. A figure
the reference leaves undefined (NaN, or an error for too little data) is written as null; so is
every figure of a case with no matched targets, where scikit-learn has nothing to compute.

    python reference.py FIXTURES.json OUT.json
"""

import json
import math
import sys
import warnings

import krippendorff
import numpy as np
from scipy.stats import pearsonr, rankdata, spearmanr
from sklearn.metrics import (
    accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    mean_absolute_error,
    precision_recall_fscore_support,
    root_mean_squared_error,
)
from statsmodels.stats.inter_rater import fleiss_kappa

warnings.simplefilter("ignore")


def text(value, mapping):
    """A label's text as evalflow writes it, then renamed by the mapping."""
    if isinstance(value, bool):
        written = "true" if value else "false"
    else:
        written = str(value)
    return mapping.get(written, written)


def number(value):
    value = float(value)
    return None if math.isnan(value) else value


def categorical(case):
    mapping = case.get("mapping", {})
    pairs = [
        (text(x, mapping), text(y, mapping))
        for x, y in zip(case["a"], case["b"])
        if x is not None and y is not None
    ]
    declared = case.get("labels", [])
    seen = sorted({label for pair in pairs for label in pair} - set(declared))
    labels = list(declared) + seen
    if not pairs:
        return {"matched": 0, "labels": labels}
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    precision, recall, f1, support = precision_recall_fscore_support(
        a, b, labels=labels, zero_division=0
    )
    macro = precision_recall_fscore_support(
        a, b, labels=labels, average="macro", zero_division=0
    )
    return {
        "matched": len(pairs),
        "labels": labels,
        "confusion": confusion_matrix(a, b, labels=labels).tolist(),
        "rawAgreement": number(accuracy_score(a, b)),
        "kappa": number(cohen_kappa_score(a, b, labels=labels)),
        "rateA": [number(np.mean([x == label for x in a])) for label in labels],
        "rateB": [number(np.mean([y == label for y in b])) for label in labels],
        "precision": [number(v) for v in precision],
        "recall": [number(v) for v in recall],
        "f1": [number(v) for v in f1],
        "support": [int(v) for v in support],
        "macro": {"precision": number(macro[0]), "recall": number(macro[1]), "f1": number(macro[2])},
    }


def numeric(case):
    pairs = [(x, y) for x, y in zip(case["a"], case["b"]) if x is not None and y is not None]
    a = np.array([x for x, _ in pairs], dtype=float)
    b = np.array([y for _, y in pairs], dtype=float)
    if len(pairs) == 0:
        return {"matched": 0}
    figures = {
        "matched": len(pairs),
        "meanA": number(np.mean(a)),
        "meanB": number(np.mean(b)),
        "mae": number(mean_absolute_error(a, b)),
        "rmse": number(root_mean_squared_error(a, b)),
        "ranksA": rankdata(a, method="average").tolist(),
        "pearson": None,
        "spearman": None,
    }
    if len(pairs) >= 2:
        figures["pearson"] = number(pearsonr(a, b).statistic)
        figures["spearman"] = number(spearmanr(a, b).statistic)
    return figures


def raters(case):
    targets = [[text(r, {}) for r in ratings if r is not None] for ratings in case["targets"]]
    labels = sorted({r for ratings in targets for r in ratings})
    code = {label: i for i, label in enumerate(labels)}
    rated = [ratings for ratings in targets if ratings]
    figures = {"labels": labels, "fleissKappa": None, "krippendorffAlpha": None}
    counts = {len(ratings) for ratings in rated}
    if len(counts) == 1 and counts.pop() >= 2:
        table = np.array([[ratings.count(label) for label in labels] for ratings in rated])
        figures["fleissKappa"] = number(fleiss_kappa(table, method="fleiss"))
    width = max((len(ratings) for ratings in targets), default=0)
    if width >= 2 and len(labels) >= 2:
        # Raters × units, NaN where a rater gave nothing; who is which rater does not change α.
        data = np.full((width, len(targets)), np.nan)
        for unit, ratings in enumerate(targets):
            for rater, rating in enumerate(ratings):
                data[rater, unit] = code[rating]
        try:
            alpha = krippendorff.alpha(
                reliability_data=data,
                value_domain=list(range(len(labels))),
                level_of_measurement="nominal",
            )
            figures["krippendorffAlpha"] = number(alpha)
        except ValueError:
            pass
    return figures


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        fixtures = json.load(file)
    out = {
        "versions": {
            "numpy": np.__version__,
            "scipy": __import__("scipy").__version__,
            "scikit-learn": __import__("sklearn").__version__,
            "statsmodels": __import__("statsmodels").__version__,
            "krippendorff": __import__("importlib.metadata").metadata.version("krippendorff"),
        },
        "categorical": [categorical(case) for case in fixtures["categorical"]],
        "numeric": [numeric(case) for case in fixtures["numeric"]],
        "raters": [raters(case) for case in fixtures["raters"]],
    }
    with open(sys.argv[2], "w", encoding="utf-8") as file:
        json.dump(out, file, allow_nan=False)


if __name__ == "__main__":
    main()
