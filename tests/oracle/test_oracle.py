"""Differential tests: llmc against KServe's own controller (../shared/oracle), object by object.

Inputs: every KServe sample under ../shared/upstream/kserve/samples, every golden input that
renders (golden/*/ without an exit_code), and 100 services drawn from tests/oracle/strategies.py
with a fixed seed. Each is rendered by the oracle (`--converge`) and by llmc with KServe's presets
and ConfigMap (tests/oracle/harness.py); every difference after compare.py's normalizations must be
on the allow-list (tests/oracle/allowed.py, which names the section of docs/differences.md that
documents it).

Inputs with a known llmc bug (tests/oracle/known.py) are strict xfails that name the bug: they
fail once it is fixed, and a difference of any other class still fails them. All inputs run once,
up front, with the oracle in `LLMC_ORACLE_JOBS` processes (default 2).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import yaml

from . import harness

if not harness.available():
    pytest.skip(harness.NO_ORACLE, allow_module_level=True)

from .allowed import ALLOWED, unexplained  # noqa: E402
from .known import BUGS, classify  # noqa: E402
from .strategies import generate  # noqa: E402

ROOT = harness.ROOT
SAMPLES = harness.KSERVE / "samples"
GOLDEN = ROOT / "golden"
DIFFERENCES_DOC = ROOT / "docs" / "differences.md"
GENERATED = 100
JOBS = int(os.environ.get("LLMC_ORACLE_JOBS", "2"))

# Samples llmc refuses, and why; the test of each checks that llmc still refuses it and the oracle does not.
REJECTED_SAMPLES = {
    # The oracle has no CRD schema validation; both CRD versions declare scheduler.config.inline an
    # object, so the API server refuses this string too (issue 19, "Where llmc is right").
    "latency-predictor/llm-inference-service-latency-predictor.yaml":
        "spec.router.scheduler.config.inline is a string; the CRD declares an object",
    # Their baseRef configs set router.scheduler.pool.spec with endpointPickerRef only; the
    # LLMInferenceServiceConfig CRD requires selector and targetPorts there, the oracle checks no schema.
    "e2e-gpt-oss/inference_default.yaml": "config llmisvc-intelligent-inference-scheduling: pool.spec lacks "
                                          "selector and targetPorts, which the CRD requires",
    "e2e-gpt-oss/inference_prefix_cache.yaml": "config llmisvc-prefix-caching: pool.spec lacks selector and "
                                               "targetPorts, which the CRD requires",
}

# Golden options and what each side gets for them; a case with any other option is compared with the defaults.
_BOTH = {"--gateway-pool-api": "--gateway-pool-api"}
_LLMC_ONLY = ("--controller-objects", "--cert-issuer")
_PATH_OPTIONS = {"--kserve-config": "--isvc-config"}
_LLMC_ONLY_REMOVALS = ("-cert-manager.io/v1",)


def _load(path: Path) -> list:
    files = sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml", ".json")) if path.is_dir() else [path]
    return [doc for f in files for doc in yaml.safe_load_all(f.read_text()) if doc]


def _kinds(docs) -> set:
    return {d.get("kind") for d in docs if isinstance(d, dict)}


def sample_cases() -> list[harness.Case]:
    """Every sample file with an LLMInferenceService, with the LLMInferenceServiceConfigs of its folder that its
    services name in baseRefs."""
    cases = []
    for path in sorted(SAMPLES.rglob("*.yaml")):
        docs = _load(path)
        if "LLMInferenceService" not in _kinds(docs):
            continue
        refs = {ref.get("name") for d in docs if d.get("kind") == "LLMInferenceService"
                for ref in (d.get("spec") or {}).get("baseRefs") or []}
        configs = [d for p in sorted(path.parent.glob("*.yaml")) if p != path for d in _load(p)
                   if d.get("kind") == "LLMInferenceServiceConfig" and d.get("metadata", {}).get("name") in refs]
        cases.append(harness.Case(f"sample:{path.relative_to(SAMPLES)}", tuple(docs + configs)))
    return cases


def _golden_args(case_dir: Path) -> list[str]:
    lines = (case_dir / "args").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def golden_case(case_dir: Path) -> tuple[harness.Case | None, str]:
    """The golden case as an oracle case (its options where the oracle has them, else the defaults), or why not."""
    args = _golden_args(case_dir)
    if (case_dir / "exit_code").exists():
        return None, "an error case"
    if args[:1] != ["render"]:
        return None, f"not a render command ({args[0]})"
    files: list[Path] = []
    llmc: list[str] = []
    oracle: list[str] = []
    compatible = True
    it = iter(args[1:])
    for opt in it:
        if opt in ("-f", "--filename"):
            files.append((case_dir / next(it)).resolve())
        elif opt in _BOTH:
            value = next(it)
            llmc += [opt, value]
            oracle += [_BOTH[opt], value]
        elif opt in _PATH_OPTIONS:
            value = str((case_dir / next(it)).resolve())
            llmc += [opt, value]
            oracle += [_PATH_OPTIONS[opt], value]
        elif opt in _LLMC_ONLY:
            llmc += [opt] if opt == "--controller-objects" else [opt, next(it)]
        elif opt == "--api-versions":
            value = next(it)
            # A cluster without an API: the oracle's fake cluster serves them all. Without cert-manager
            # llmc drops only its stand-in for the runtime Secret, which the allow-list covers.
            if value.startswith("-") and value not in _LLMC_ONLY_REMOVALS:
                compatible = False
            llmc += [opt, value]
            if value == "inference.networking.x-k8s.io/v1alpha2":
                oracle.append("--v1alpha2-pool-crd")
        else:  # --kube-version, --dra-api, --preset-set, ...: nothing the oracle can mirror
            compatible = False
            next(it, None)
    docs = [d for f in files for d in _load(f)]
    if "InferenceService" in _kinds(docs):
        return None, "an InferenceService (v1beta1): the oracle reconciles LLMInferenceServices only"
    if not compatible:
        llmc, oracle = [], []
    return harness.Case(f"golden:{case_dir.name}", tuple(docs), tuple(llmc), tuple(oracle)), ""


def _key(case: harness.Case) -> str:
    return json.dumps([case.documents, case.llmc_args, case.oracle_args], sort_keys=True)


def golden_cases(samples) -> tuple[list[harness.Case], dict[str, str]]:
    """The golden cases to compare, and those left out with the reason (a case equal to a sample is left out)."""
    seen = {_key(c): c.id for c in samples}
    cases, left_out = [], {}
    for case_dir in sorted(p for p in GOLDEN.iterdir() if (p / "args").is_file()):
        case, why = golden_case(case_dir)
        if case is not None and _key(case) in seen:
            case, why = None, f"the same input as {seen[_key(case)]}"
        if case is None:
            left_out[case_dir.name] = why
            continue
        seen[_key(case)] = case.id
        cases.append(case)
    return cases, left_out


SAMPLE_CASES = sample_cases()
GOLDEN_CASES, GOLDEN_LEFT_OUT = golden_cases(SAMPLE_CASES)
GENERATED_CASES = [harness.Case(f"gen-{i:04d}", tuple(docs)) for i, docs in enumerate(generate(GENERATED))]
CASES = {c.id: c for c in SAMPLE_CASES + GOLDEN_CASES + GENERATED_CASES}


def _params(cases) -> list:
    out = []
    for case in cases:
        bugs = sorted({b.name for b in BUGS if b.applies(case)})
        marks = [pytest.mark.xfail(strict=True, raises=KnownDifference, reason="known llmc bug: " + "; ".join(bugs))] if bugs else []
        out.append(pytest.param(case.id, id=case.id, marks=marks))
    return out


class KnownDifference(AssertionError):
    """Only differences of the known bug classes the input is marked with (an expected failure)."""


@pytest.fixture(scope="module")
def outcomes(request: pytest.FixtureRequest) -> dict[str, harness.Outcome]:
    """Every selected input through both sides, at once (the oracle runs in parallel processes)."""
    selected = [item.callspec.params["case_id"] for item in request.session.items
                if hasattr(item, "callspec") and "case_id" in item.callspec.params and item.module is request.module]
    return harness.run_cases([CASES[i] for i in dict.fromkeys(selected)], JOBS)


def _check(outcome: harness.Outcome) -> None:
    """Fail on anything unexplained; raise KnownDifference when all that is left is the input's known bug."""
    left = unexplained(outcome.differences)
    classes = classify(outcome, left)
    expected = {b.name for b in BUGS if b.applies(outcome.case)}
    report = "\n".join([*(f"oracle: {outcome.oracle_error}",) * bool(outcome.oracle_error),
                        *(f"llmc: {outcome.llmc_error}",) * bool(outcome.llmc_error), *map(str, left)])
    new = set(classes) - expected
    assert not new, f"{outcome.case.id}: differences outside the allow-list ({', '.join(sorted(new))}):\n{report}"
    if classes:
        raise KnownDifference(f"{outcome.case.id}: {', '.join(sorted(classes))}:\n{report}")


@pytest.mark.parametrize("case_id", _params(SAMPLE_CASES))
def test_sample(case_id: str, outcomes) -> None:
    outcome = outcomes[case_id]
    name = case_id.removeprefix("sample:")
    if outcome.llmc_error and outcome.oracle_error:
        pytest.skip(f"both refuse it: llmc {outcome.llmc_error[:200]}")
    if outcome.llmc_error and name in REJECTED_SAMPLES:
        pytest.skip(f"llmc refuses it: {REJECTED_SAMPLES[name]}")
    assert name not in REJECTED_SAMPLES, f"llmc now renders {name}: take it off REJECTED_SAMPLES"
    _check(outcome)


@pytest.mark.parametrize("case_id", _params(GOLDEN_CASES))
def test_golden(case_id: str, outcomes) -> None:
    _check(outcomes[case_id])


@pytest.mark.parametrize("case_id", _params(GENERATED_CASES))
def test_generated(case_id: str, outcomes) -> None:
    _check(outcomes[case_id])


def test_inputs_cover_samples_goldens_and_generated() -> None:
    assert len(SAMPLE_CASES) >= 20
    assert len(GOLDEN_CASES) >= 20, GOLDEN_LEFT_OUT
    assert len({_key(c) for c in GENERATED_CASES}) == GENERATED
    left_out = set(GOLDEN_LEFT_OUT.values())
    assert not any(why.startswith("not a render") and "convert" not in why for why in left_out), GOLDEN_LEFT_OUT


def _headings() -> set[str]:
    return {m.group(1).strip() for m in re.finditer(r"^#+ (.+)$", DIFFERENCES_DOC.read_text(), re.M)}


def _table_rows() -> set[str]:
    return {m.group(1).strip() for m in re.finditer(r"^\| ([^|]+?) \|", DIFFERENCES_DOC.read_text(), re.M)}


def test_allow_list_names_documented_sections() -> None:
    headings, rows = _headings(), _table_rows()
    for entry in ALLOWED:
        assert entry.heading in headings, f"{entry}: no heading {entry.heading!r} in {DIFFERENCES_DOC}"
        assert entry.row is None or entry.row in rows, f"{entry}: no table row {entry.row!r} in {DIFFERENCES_DOC}"
