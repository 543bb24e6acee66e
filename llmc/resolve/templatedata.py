"""The data KServe's preset templates see, and `render_config`, the controller's ReplaceVariables.

The controller executes the JSON text of the merged config as one Go template
named `config` (missingkey=error) on

    struct { *v1alpha2.LLMInferenceService; GlobalConfig llmisvc.templateGlobalConfig }

so templates address Go field names: `.ObjectMeta.Name` (or the promoted `.Name`),
`.Spec.Parallelism.Tensor`, `.Spec.Template` (a `*v1.PodSpec`), `.GlobalConfig.EnableTLS`...
(`ReplaceVariables`, llmisvc/config_merge.go). This module describes those Go types for the template engine.

The spec and ObjectMeta types come from `llmc.kserve.gotypes` (KServe's Go types, with the
Kubernetes, Gateway API and InferencePool types they embed), so a field that does not
exist fails as in Go (`can't evaluate field X in type ...`). This module adds the
service wrapper, the status (modelled in part: reaching a field it does not model
is an llmc error that says so, never a guess), GlobalConfig, and the behaviour of
the special types (Quantity, apis.URL, IntOrString, RawExtension, Time).
"""

from __future__ import annotations

import json
from marshal import dumps as marshal_dumps
import re
from functools import lru_cache
from itertools import accumulate

from llmc.core.errors import LlmcError
from llmc.go.template.template import Limits, Template, TemplateExecError, TemplateParseError
from llmc.go.template.template import parse
from llmc.go.template.exec import execute_counted, field_chain
from llmc.go.template.nodes import (
    ActionNode, BoolNode, BranchNode, CommandNode, CommentNode, FieldNode, IdentifierNode, ListNode, NilNode, Node,
    NumberNode, PipeNode, StringNode, TextNode,
)
from llmc.go.template.packed import unpack
from llmc.go.template.parse import Tree, parse_templates
from llmc.resolve import parsed_strings
from llmc.resolve.template_funcs import kserve_funcs
from llmc.go.reflect import (
    ANY, BASIC, BOOL, BYTES, INT32, INT64, STRING, GoField, GoType, Method, Value, map_of, ptr_to, slice_of,
)
from llmc.core.lazy_fields import LazyFields
from llmc.kserve import gotypes
from llmc.go.json import marshal
from llmc.go.json import has_surrogate, string as json_string
from llmc.go.strconv import quote
from llmc.go.url import URLError
from llmc.core.jsoncopy import copy_json
from llmc.go.url import parse as parse_url
from llmc.k8s.quantity import canonical_quantity, quantity_value
from llmc.core.record import replace

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

# -- type table -------------------------------------------------------------------

_TYPES: dict[str, GoType] = {}


def _struct(name: str, fields: list[tuple[str, str | None, GoType]], *, partial: bool = False,
            embedded: tuple[str, ...] = ()) -> GoType:
    """A struct type; fields are (Go name, JSON key or None for inline, type)."""
    t = _TYPES.get(name) or GoType(name, "struct")
    t.fields = [GoField(go, js, ft, embedded=go in embedded) for go, js, ft in fields]
    t.partial = partial
    _TYPES[name] = t
    return t


def _partial(name: str) -> GoType:
    """A Kubernetes struct whose fields llmc does not model."""
    return _struct(name, [], partial=True)


def _camel(go: str) -> str:
    return go[0].lower() + go[1:]


def _fields(spec: str, types: dict[str, GoType]) -> list[tuple[str, str | None, GoType]]:
    """Parse 'GoName[:json] type' lines; json defaults to lower-camel Go name; '-' means inline."""
    out = []
    for line in spec.strip().splitlines():
        name, typ = line.split()
        go, _, js = name.partition(":")
        out.append((go, None if js == "-" else (js or _camel(go)), types[typ] if typ in types else _type(typ)))
    return out


def _type(expr: str) -> GoType:
    if expr.startswith("*"):
        return ptr_to(_type(expr[1:]))
    if expr.startswith("[]"):
        return slice_of(_type(expr[2:]))
    m = re.fullmatch(r"map\[(\S+?)\](\S+)", expr)
    if m:
        return map_of(_type(m.group(1)), _type(m.group(2)))
    basic = {"string": STRING, "bool": BOOL, "int32": INT32, "int64": INT64, "any": ANY, "bytes": BYTES}
    if expr in basic:
        return basic[expr]
    return _TYPES[expr]


_TYPES["intstr.Type"] = GoType("intstr.Type", "int64")


def _quantity_text(v: Value | None) -> str | None:
    """(*Quantity).String(): the canonical form; a nil receiver panics (fmt prints <nil>)."""
    if v is None:
        return None
    return canonical_quantity(v.x if v.x is not None else "0")


def _quantity_value(v: Value) -> int:
    return quantity_value(v.x if v.x is not None else "0")


QUANTITY = GoType("resource.Quantity", "struct", opaque=True, stringer=_quantity_text, stringer_ptr=True)
QUANTITY.methods = {
    "Value": Method((), INT64, lambda q: Value(INT64, _quantity_value(q.x)), ptr_receiver=True),
    "String": Method((), STRING, lambda q: Value(STRING, _quantity_text(q.x) or ""), ptr_receiver=True),
}
_TYPES["resource.Quantity"] = QUANTITY


def _url_payload(raw: Any) -> dict[str, Any]:
    if not raw:
        return {}
    try:
        u = parse_url(str(raw))
    except URLError:
        return {}
    text = {"Scheme": u.scheme, "Opaque": u.opaque, "Host": u.host, "Path": u.path, "RawPath": u.raw_path,
            "RawQuery": u.raw_query, "Fragment": u.fragment, "RawFragment": u.raw_fragment}
    out: dict[str, Any] = {k: v.decode("utf-8", "replace") for k, v in text.items()}
    out["OmitHost"] = u.omit_host
    out["ForceQuery"] = u.force_query
    out["User"] = None if u.user is None else {}
    out["_url"] = u
    return out


def _url_text(v: Value | None) -> str:
    if v is None or not v.x:
        return ""  # (*apis.URL)(nil).String() and the zero URL are both ""
    return v.x["_url"].string()


URL_TYPE = _struct("apis.URL", _fields("""
Scheme:Scheme string
Opaque:Opaque string
User:User *url.Userinfo
Host:Host string
Path:Path string
RawPath:RawPath string
OmitHost:OmitHost bool
ForceQuery:ForceQuery bool
RawQuery:RawQuery string
Fragment:Fragment string
RawFragment:RawFragment string
""", {"*url.Userinfo": ptr_to(_partial("url.Userinfo"))}))
URL_TYPE.from_raw = _url_payload
URL_TYPE.opaque = True  # url.URL's field order changed between Go releases: printing it whole is not reproducible
URL_TYPE.stringer = _url_text
URL_TYPE.stringer_ptr = True
URL_TYPE.methods = {"String": Method((), STRING, lambda u: Value(STRING, _url_text(u.x)), ptr_receiver=True)}


def _intstr_payload(raw: Any) -> dict[str, Any]:
    if isinstance(raw, str):
        return {"Type": 1, "IntVal": 0, "StrVal": raw}
    return {"Type": 0, "IntVal": int(raw or 0), "StrVal": ""}


def _intstr_text(v: Value | None) -> str | None:
    if v is None:
        return None
    p = v.x or _intstr_payload(None)
    return p["StrVal"] if p["Type"] == 1 else str(p["IntVal"])


INTSTR = _struct("intstr.IntOrString", _fields("""
Type:Type intstr.Type
IntVal:IntVal int32
StrVal:StrVal string
""", {}))
INTSTR.from_raw = _intstr_payload
INTSTR.stringer = _intstr_text
INTSTR.stringer_ptr = True


def _raw_payload(raw: Any) -> dict[str, Any]:
    return {"Raw": None if raw is None else list(marshal(raw, sort_keys=False).encode()), "Object": None}


RAW_EXTENSION = _struct("runtime.RawExtension", _fields("""
Raw:Raw bytes
Object:Object runtime.Object
""", {"runtime.Object": GoType("runtime.Object", "interface", opaque=True)}))
RAW_EXTENSION.from_raw = _raw_payload

TIME = GoType("v1.Time", "struct", opaque=True)
_TYPES["v1.Time"] = TIME

for _n in ["apis.Condition", "v1.Addressable", "v1alpha2.RouterStatus", "v1alpha2.WorkloadStatus"]:
    _partial(_n)

_SPECIAL = {"quantity": QUANTITY, "intorstring": INTSTR, "raw": RAW_EXTENSION, "url": URL_TYPE, "time": TIME,
            "any": ANY}
_CONVERTED: dict[int, GoType] = {}


class _ConvertedStruct(LazyFields, GoType):
    """The engine's view of a `gotypes` struct, its fields converted when first read."""


def _convert(t: gotypes.GoType) -> GoType:
    """The engine's view of a `llmc.kserve.gotypes` type (the single table of KServe's Go types)."""
    done = _CONVERTED.get(id(t))
    if done is not None:
        return done
    if t.kind in _SPECIAL:
        return _SPECIAL[t.kind]
    if t.kind == "pointer":
        out = ptr_to(_convert(t.elem))
    elif t.kind == "slice":
        out = slice_of(_convert(t.elem))
    elif t.kind == "map":
        key = t.name[len("map["):t.name.index("]")]
        out = map_of(STRING if key == "string" else GoType(key, "string"), _convert(t.elem))
    elif t.kind == "struct":
        out = _ConvertedStruct(t.name, "struct")
        out.defer(lambda: [GoField(f.go, None if f.inline else f.json, _convert(f.type), embedded=f.inline)
                           for f in t.fields])
    elif t.name in BASIC:
        out = BASIC[t.name]
    else:
        kind = t.kind if t.kind in ("string", "bool") else f"{t.kind}{t.bits or 64}"
        out = GoType(t.name, kind)
    _CONVERTED[id(t)] = out
    return out


_TYPES["v1alpha2.LLMInferenceServiceSpec"] = _convert(gotypes.spec_type())
_TYPES["v1.ObjectMeta"] = _convert(gotypes.object_meta_type())
_struct("v1.TypeMeta", _fields("""
Kind string
APIVersion:apiVersion string
""", {}))
_TYPES["v1alpha2.AppliedConfigSource"] = GoType("v1alpha2.AppliedConfigSource", "string")
_struct("v1alpha2.AppliedConfigRef", _fields("""
Name string
Namespace string
Source v1alpha2.AppliedConfigSource
""", {}))
_struct("v1.Status", _fields("""
ObservedGeneration int64
Conditions []apis.Condition
Annotations map[string]string
""", {}))
_struct("v1alpha2.LLMInferenceServiceStatus", _fields("""
Status:- v1.Status
URL:url *apis.URL
Address *v1.Addressable
Addresses []v1.Addressable
Router *v1alpha2.RouterStatus
Workloads *v1alpha2.WorkloadStatus
AppliedConfigs []v1alpha2.AppliedConfigRef
""", {}), embedded=("Status",), partial=True)
SERVICE = _struct("v1alpha2.LLMInferenceService", _fields("""
TypeMeta:- v1.TypeMeta
ObjectMeta:metadata v1.ObjectMeta
Spec v1alpha2.LLMInferenceServiceSpec
Status v1alpha2.LLMInferenceServiceStatus
""", {}), embedded=("TypeMeta", "ObjectMeta"))
GLOBAL_CONFIG = _struct("llmisvc.templateGlobalConfig", [
    (name, name, typ) for name, typ in [
        ("SystemNamespace", STRING), ("IngressGatewayName", STRING), ("IngressGatewayNamespace", STRING),
        ("EnableTLS", BOOL), ("ModelBasedRoutingHeaderName", STRING), ("InferencePoolNamespacedName", STRING),
    ]
])
ROOT = GoType(
    "struct { *v1alpha2.LLMInferenceService; GlobalConfig llmisvc.templateGlobalConfig }",
    "struct",
    fields=[GoField("LLMInferenceService", "LLMInferenceService", ptr_to(SERVICE), embedded=True),
            GoField("GlobalConfig", "GlobalConfig", GLOBAL_CONFIG)],
)

# -- the data object and ReplaceVariables -------------------------------------------


def template_data(service: dict[str, Any], global_config: dict[str, Any]) -> Value:
    """The controller's data object for one service (its own stored object, not the merged spec)."""
    gc = {f.name: global_config.get(f.name) for f in GLOBAL_CONFIG.fields}
    return Value(ROOT, {"LLMInferenceService": service, "GlobalConfig": gc})


FUNCS = kserve_funcs(_quantity_value)


@lru_cache(maxsize=256)
def compile_config(text: str) -> Template:
    """Parse JSON text as template `config` with the controller's functions and missingkey=error (cached)."""
    return parse("config", text, funcs=FUNCS, missingkey="error")


# -- the same template, assembled from its JSON strings ------------------------------
#
# The text differs for every service (names, models, resources), but its template
# actions sit in a few strings that come from the presets and repeat in every
# service. Every `{{` of compact JSON text is inside a string literal (between
# JSON tokens `{` is always followed by `"` or `}`), and Go's lexer scans text
# outside actions for `{{` only. So when each string literal holding `{{` parses
# on its own into one template whose actions all close inside it, the parse of
# the whole text is exactly: the JSON between those strings as text, and each
# string's nodes. Strings are parsed once per run (cached); anything else (an
# action spanning strings, a variable declared in one string and used in another,
# `define`/`block`, a parse error) takes the whole-text parse, which reports errors
# with Go's positions. Node positions inside a cached string are relative to it, so
# an execution error is re-run on the whole-text parse for Go's exact message.


@lru_cache(maxsize=1)
def _empty_config() -> Template:
    return parse("config", "", funcs=FUNCS, missingkey="error")


@lru_cache(maxsize=1)
def _parsed_ahead() -> dict[str, Any]:
    return parsed_strings.read_table(function_names())


def function_names() -> tuple[str, ...]:
    """The names of the functions `config` templates may call, sorted."""
    return tuple(sorted(_empty_config().funcs))


@lru_cache(maxsize=4096)
def _string_nodes(literal: str) -> tuple[Node, ...] | None:
    """`parse_string(literal)`, from the strings parsed ahead of time when they hold it (`parsed_strings`)."""
    ahead = _parsed_ahead().get(literal)
    if ahead is not None:
        return tuple(unpack(ahead))
    return parse_string(literal)


def parse_string(literal: str) -> tuple[Node, ...] | None:
    """The nodes of one JSON string literal parsed alone, or None when it is not a template on its own."""
    try:
        trees = parse_templates("config", literal, _empty_config().funcs.keys())
    except TemplateParseError:
        return None
    if list(trees) != ["config"]:
        return None
    root = trees["config"].root
    return tuple(root.nodes) if root is not None else ()


def _string_bounds(text: str, inside: int) -> tuple[int, int]:
    """Indexes of the opening and closing quote of the JSON string literal around index `inside`."""

    def escaped(quote: int) -> bool:
        run = 0
        while text[quote - 1 - run] == "\\":
            run += 1
        return run % 2 == 1

    start = text.rfind('"', 0, inside)
    while start > 0 and escaped(start):
        start = text.rfind('"', 0, start)
    end = text.find('"', inside)
    while end > 0 and escaped(end):
        end = text.find('"', end + 1)
    return start, end


def _spliced_pieces(text: str) -> list[str | tuple[str, tuple[Node, ...]]] | None:
    """The text as JSON between templated strings (str) and (literal, its nodes), or None (parse it whole)."""
    pieces: list[str | tuple[str, tuple[Node, ...]]] = []
    done = 0
    found = text.find("{{")
    while found >= 0:
        start, end = _string_bounds(text, found)
        if start < 0 or end < 0:  # not JSON text
            return None
        literal = text[start : end + 1]
        parsed = _string_nodes(literal)
        if parsed is None:
            return None
        if start > done:
            pieces.append(text[done:start])
        pieces.append((literal, parsed))
        done = end + 1
        found = text.find("{{", done)
    if done < len(text):
        pieces.append(text[done:])
    return pieces


def spliced_config(text: str) -> Template | None:
    """`compile_config(text)` from cached per-string parses, or None when the whole text must be parsed."""
    pieces = _spliced_pieces(text)
    if pieces is None:
        return None
    nodes: list[Node] = []
    pos = 0
    for piece in pieces:
        if isinstance(piece, str):
            nodes.append(TextNode(pos, piece))
            pos += len(piece)
        else:
            nodes.extend(piece[1])
            pos += len(piece[0])
    tree = Tree("config", "config", text, ListNode(0, nodes))
    return replace(_empty_config(), trees={"config": tree})


# -- executing the spliced strings, remembered by what they read -----------------------
#
# Executing the spliced template is executing its strings one after the other (each parses
# alone, so none reads another's variables). A string whose actions reach the data only
# through field chains from the root (`.ObjectMeta.Name`, `.GlobalConfig.EnableTLS`: no `$`,
# no variables, no `with`/`range`/`template`, dot never changes) writes the same text for the
# same values of those chains, so its output is remembered by (string, each chain's value).
# Most preset strings read only GlobalConfig, the namespace or the model name. The budgets of
# `Limits` count over the whole text: each string's are remembered too, and a text over a
# budget is executed whole, for Go's error. So is a text with an execution error.


def _field_chains(nodes: tuple[Node, ...]) -> tuple[tuple[str, ...], ...] | None:
    """The field chains the nodes read, in order of first use, or None when they read data otherwise."""
    chains: dict[tuple[str, ...], None] = {}

    def ok(node: Node | None) -> bool:
        if node is None or isinstance(node, (TextNode, CommentNode, IdentifierNode, StringNode, NumberNode,
                                             BoolNode, NilNode)):
            return True
        if isinstance(node, FieldNode):
            chains[tuple(node.ident)] = None
            return True
        if isinstance(node, ActionNode):
            return ok(node.pipe)
        if isinstance(node, PipeNode):
            return not node.decl and all(map(ok, node.cmds))
        if isinstance(node, CommandNode):
            return all(map(ok, node.args))
        if isinstance(node, ListNode):
            return all(map(ok, node.nodes))
        if isinstance(node, BranchNode):
            return node.keyword == "if" and ok(node.pipe) and ok(node.list) and ok(node.else_list)
        return False  # dot, variables, chains on pipelines, with, range, template, break, continue

    return tuple(chains) if all(map(ok, nodes)) else None


@lru_cache(maxsize=4096)
def _string_plan(literal: str) -> tuple[Tree, tuple[tuple[str, ...], ...] | None]:
    nodes = _string_nodes(literal)
    assert nodes is not None  # only literals _spliced_pieces found parsing alone
    return Tree("config", "config", literal, ListNode(0, list(nodes))), _field_chains(nodes)


_TYPES_SEEN: dict[int, Any] = {}  # the Go types a key names by id, kept alive so that no id is reused
_OUTPUTS: dict[tuple, Any] = {}  # (literal, chain values) -> (gotemplate.exec.Counted, whether it is one JSON string)
_OUTPUTS_LIMIT = 1 << 20  # characters of remembered output and keys before starting afresh
_outputs_size = 0


def _value_key(v: Value | None) -> Any:
    """A Value as data: its type, addressability and payload (marshal_dumps raises ValueError for other payloads)."""
    if v is None:
        return None
    _TYPES_SEEN.setdefault(id(v.t), v.t)
    x = v.x
    if isinstance(x, Value):
        return (id(v.t), v.addr, _value_key(x))
    return (id(v.t), v.addr, marshal_dumps(x))


def _chains_key(literal: str, chains: tuple[tuple[str, ...], ...], data: Value, seen: dict) -> tuple | None:
    """(literal, what each chain reads) or None when a value cannot be keyed; `seen` holds the chains
    already read of this `data` (the strings of one config read the same few)."""
    key: list[Any] = [literal]
    for ident in chains:
        part = seen.get(ident)
        if part is None:
            try:
                plain, value = field_chain(data, list(ident), _all_funcs(), "error")
                part = (plain, _value_key(value))
            except TemplateExecError as e:
                part = ("error", e.message)  # the same data fails the same way
            except (ValueError, RecursionError):
                part = False
            seen[ident] = part
        if part is False:
            return None
        key.append(part)
    return tuple(key)


@lru_cache(maxsize=1)
def _all_funcs() -> dict[str, Any]:
    return dict(_empty_config().funcs)


def _execute_pieces(pieces: list[str | tuple[str, tuple[Node, ...]]], data: Value,
                    plain: int = 0) -> tuple[list[str], bool] | None:
    """The spliced text's output in parts, its strings' from the cache where they read the same, and
    whether every string's output is one JSON string; None on an error or a budget exceeded (the
    caller executes the whole text, for Go's message). `plain` counts text given apart from `pieces`
    against the output and work budgets."""
    global _outputs_size
    limits = Limits()
    seen: dict[tuple[str, ...], Any] = {}
    out: list[str] = []
    out_bytes = work = plain
    calls = 0
    strings = True
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            out_bytes += len(piece)
            work += len(piece)
            continue
        literal = piece[0]
        tree, chains = _string_plan(literal)
        key = _chains_key(literal, chains, data, seen) if chains is not None else None
        remembered = _OUTPUTS.get(key) if key is not None else None
        if remembered is None:
            try:
                done = execute_counted(tree, _all_funcs(), data, "error", limits)
            except TemplateExecError:
                return None
            remembered = done, _JSON_STRING.fullmatch(done.text) is not None
            if key is not None:
                _outputs_size += len(done.text) + len(marshal_dumps(key))
                if _outputs_size > _OUTPUTS_LIMIT:
                    _OUTPUTS.clear()
                    _outputs_size = 0
                _OUTPUTS[key] = remembered
        done, one_string = remembered
        out.append(done.text)
        strings = strings and one_string
        out_bytes += done.out_bytes
        calls += done.calls
        work += done.work
    if out_bytes > limits.output_bytes or calls > limits.calls or work > limits.work_bytes:
        return None
    return out, strings


# one JSON string token as encoding/json reads it: no raw control characters, only its escapes
_JSON_STRING = re.compile(r'"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"')


def render_config(config: dict[str, Any], service: dict[str, Any], global_config: dict[str, Any], *,
                  spec_projected: bool = False) -> dict[str, Any]:
    """ReplaceVariables: execute the JSON text of `config` as a Go template on the service's data.

    `config` is the merged LLMInferenceServiceConfig (metadata + spec) as decoded JSON in
    Go field order; `global_config` is keyed by templateGlobalConfig's Go field names.
    `spec_projected` promises that `config["spec"]` is `gotypes.project`ed, so that none of its
    objects repeats a key case-insensitively. Raises LlmcError with the controller's messages.
    """
    shortcut = spec_projected and config.keys() <= {"metadata", "spec"} and _no_folded_repeats(config.get("metadata"))
    if shortcut:
        rendered = _render_tree(config, service, global_config)
        if rendered is not None:
            return rendered
    text = marshal(config, sort_keys=False)
    if "{{" not in text:
        return copy_json(config)
    data = template_data(service, global_config)
    pieces = _spliced_pieces(text)
    executed = _execute_pieces(pieces, data) if pieces is not None else None
    if executed is None:  # the whole text, for Go's message and position
        try:
            tmpl = compile_config(text)
        except TemplateParseError as e:
            raise _at_source(LlmcError(f"failed to parse template config: {e.message}"), text, e.pos, parse=True) from None
        try:
            out, strings = tmpl.execute(data), False
        except TemplateExecError as e:
            raise _at_source(LlmcError(f"failed to merge config: {e.message}"), text, e.pos) from None
    else:
        out, strings = "".join(executed[0]), executed[1]
    if strings and shortcut:
        # Every templated string became one string: the text has the config's own shape, whose depth
        # the input limits bound, and no object repeats a key, so Go's decoder reads what json.loads does.
        return json.loads(out)
    depth = _json_depth(out)
    if depth > MAX_JSON_DEPTH:
        raise LlmcError(f"failed to unmarshal config from template: exceeded max depth ({MAX_JSON_DEPTH})",
                        hint="a template's output is spliced into the JSON text unescaped") from None
    from llmc.resolve.godecode import loads
    from llmc.kserve.gotypes import config_type

    try:
        return loads(out, config_type())
    except json.JSONDecodeError as e:
        raise LlmcError(f"failed to unmarshal config from template: {go_json_error(out, e)}",
                        hint="a template's output is spliced into the JSON text unescaped") from None


def _no_folded_repeats(value: Any) -> bool:
    """Whether no object in `value` repeats a key case-insensitively (see llmc.resolve.godecode)."""
    if isinstance(value, dict):
        return len({k.lower() for k in value}) == len(value) and all(map(_no_folded_repeats, value.values()))
    if isinstance(value, list):
        return all(map(_no_folded_repeats, value))
    return True


class _NotPlain(Exception):
    """The config holds what its JSON text would change (a float, a surrogate, a key that is not a
    plain string) or a templated key: `_render_tree` leaves it to the JSON text."""


def _render_tree(config: dict[str, Any], service: dict[str, Any], global_config: dict[str, Any]) -> dict[str, Any] | None:
    """render_config's shortcut without writing and reading the JSON text: each templated string
    of a copy of `config` is replaced by its output; None when the JSON text must decide.

    It equals `json.loads` of the executed text whenever that text is taken: the strings with `{{`
    are the text's templated literals, in the same order (`_spliced_pieces`), and the rest of the
    text reads back as the copy (`_plain_copy` refuses what would not). The budgets count the plain
    text at an upper bound (JSON is at most 6 bytes per marshal byte, see check.api_rules); a
    config near them takes the JSON text, which counts it exactly.
    """
    found: list[tuple[Any, Any]] = []
    try:
        copy = _plain_copy(config, found)
    except (_NotPlain, RecursionError):
        return None
    if not found:
        return copy
    pieces: list[str | tuple[str, tuple[Node, ...]]] = []
    for parent, key in found:
        literal = json_string(parent[key])
        nodes = _string_nodes(literal)
        if nodes is None:
            return None
        pieces.append((literal, nodes))
    try:
        plain = 6 * len(marshal_dumps(config, 2))
    except ValueError:
        return None
    executed = _execute_pieces(pieces, template_data(service, global_config), plain)
    if executed is None or not executed[1]:
        return None
    for (parent, key), out in zip(found, executed[0]):  # one JSON string each: without a `\\`, its inside
        parent[key] = out[1:-1] if "\\" not in out else json.loads(out)
    return copy


def _plain_copy(value: Any, found: list[tuple[Any, Any]]) -> Any:
    """A copy of plain JSON data (an object or a list: their strings are `_plain_string`'s); (container,
    key) of every string with `{{` goes to `found`."""
    kind = type(value)
    if kind is dict:
        out: dict[str, Any] = {}
        for key, item in value.items():
            if type(key) is not str or "{{" in key or has_surrogate(key):
                raise _NotPlain
            out[key] = _plain_copy(item, found) if type(item) is not str else _plain_string(item, out, key, found)
        return out
    if kind is list:
        items: list[Any] = []
        for index, item in enumerate(value):
            items.append(_plain_copy(item, found) if type(item) is not str else _plain_string(item, items, index, found))
        return items
    if value is None or kind is bool or kind is int:
        return value
    raise _NotPlain  # a float (Go writes 1.0 as 1), or not JSON data


def _plain_string(value: str, parent: Any, key: Any, found: list[tuple[Any, Any]]) -> str:
    if has_surrogate(value):
        raise _NotPlain  # Go writes a surrogate as U+FFFD
    if "{{" in value:
        found.append((parent, key))
    return value


def _at_source(err: LlmcError, text: str, pos: int | None, parse: bool = False) -> LlmcError:
    """Name the config string whose action failed: `err.template_source` = (its path in the config, its value).

    Go reports an offset into the config's JSON text, which the user never wrote; the caller
    (llmc.resolve.resolver) finds the document and line that wrote the string. The action at fault is the
    last `{{` at or before `pos`. The hint about raw strings is given only when a `"` inside that
    action is the cause: JSON escapes it to `\\"`, which Go's lexer cannot read.
    """
    start = text.rfind("{{", 0, (pos if pos is not None else len(text)) + 2)
    found = json_string_at(text, start) if start >= 0 else None
    if found is None:
        return err
    path, value = found
    err.template_source = (path, value)
    if parse:
        actions = list(re.finditer(r"\{\{((?:(?!\}\}).)*)(\}\})?", value, re.S))
        if any('"' in a.group(1) for a in actions):
            err.hint = "string literals inside actions must be backtick raw strings (a \" is escaped in the config's JSON text)"
        elif any(a.group(2) is None for a in actions):
            err.hint = "the action opened with {{ is not closed with }} in the same string"
    return err


_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]|[^\s\[\]{}:,"]+')


def json_string_at(text: str, offset: int) -> tuple[tuple[str | int, ...], str] | None:
    """(path, decoded value) of the JSON string token of `text` that holds `offset`, or None."""
    stack: list[list] = []  # per open container: [is object, key or index, expecting a key]
    for m in _JSON_TOKENS.finditer(text):
        if m.start() > offset:
            return None
        tok = m.group()
        c = tok[0]
        if c in "{[":
            stack.append([c == "{", None if c == "{" else 0, c == "{"])
        elif c in "}]":
            if stack:
                stack.pop()
        elif c == ":":
            if stack:
                stack[-1][2] = False
        elif c == ",":
            if stack:
                top = stack[-1]
                if top[0]:
                    top[2] = True
                else:
                    top[1] += 1
        else:
            if stack and stack[-1][0] and stack[-1][2] and c == '"':
                stack[-1][1] = json.loads(tok)
            if c == '"' and offset < m.end():
                return tuple(entry[1] for entry in stack), json.loads(tok)
    return None


# Go's encoding/json refuses nesting deeper than 10000; llmc's own limit for input documents
# (llmc.load.documents.MAX_DEPTH) is lower, and what the decoder and the Go round trip recurse through must stay
# well within Python's recursion limit.
MAX_JSON_DEPTH = 100

_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')  # "(?:[^"\\]|\\.)*" unrolled: the same strings
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _json_depth(text: str) -> int:
    """The deepest bracket nesting of JSON text (strings skipped), without recursion.

    The regular expressions and `accumulate` do the scanning in C: strings are dropped
    (a quote that opens no complete string is an ordinary character), then all but the brackets.
    """
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return 0
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets)), default=0))


def go_json_error(text: str, err: json.JSONDecodeError) -> str:
    """The syntax error encoding/json reports for invalid text (the common cases)."""
    pos = err.pos
    if pos >= len(text) or err.msg.startswith("Unterminated string"):
        return "unexpected end of JSON input"
    shown = _quote_char(text[pos])
    msg = err.msg
    if msg.startswith("Expecting ',' delimiter") or msg.startswith("Expecting property name"):
        context = "after object key:value pair" if _in_object(text, pos) else "after array element"
        if msg.startswith("Expecting property name"):
            context = "looking for beginning of object key string"
        return f"invalid character {shown} {context}"
    if msg.startswith("Expecting ':' delimiter"):
        return f"invalid character {shown} after object key"
    if msg.startswith("Extra data"):
        return f"invalid character {shown} after top-level value"
    if msg.startswith("Invalid control character"):
        return f"invalid character {shown} in string literal"
    if msg.startswith("Invalid \\escape"):
        return f"invalid character {shown} in string escape code"
    return f"invalid character {shown} looking for beginning of value"


def _quote_char(ch: str) -> str:
    """encoding/json's quoteChar: the offending character as a quoted Go rune (`'\\x01'`, `'é'`, `'\\''`)."""
    if ch in "'\"":
        return "'\\''" if ch == "'" else "'\"'"
    return "'" + quote(ch)[1:-1] + "'"


def _in_object(text: str, pos: int) -> bool:
    """Whether the innermost open bracket before `pos` is an object (strings skipped)."""
    stack: list[str] = []
    in_str = esc = False
    for c in text[:pos]:
        if in_str:
            if esc:
                esc = False
            elif c == "\\":
                esc = True
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "{[":
            stack.append(c)
        elif c in "}]" and stack:
            stack.pop()
    return bool(stack) and stack[-1] == "{"
