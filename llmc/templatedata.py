"""The data KServe's preset templates see, and `render_config`, the controller's ReplaceVariables.

The controller executes the JSON text of the merged config as one Go template
named `config` (missingkey=error) on

    struct { *v1alpha2.LLMInferenceService; GlobalConfig llmisvc.templateGlobalConfig }

so templates address Go field names: `.ObjectMeta.Name` (or the promoted `.Name`),
`.Spec.Parallelism.Tensor`, `.Spec.Template` (a `*v1.PodSpec`), `.GlobalConfig.EnableTLS`...
(reference 01 §4.1). This module describes those Go types for the template engine.

The KServe types (reference 01 §1) are modelled completely, so a field that does
not exist fails as in Go (`can't evaluate field X in type ...`). Kubernetes and
Gateway API types are modelled only in part (`partial`): reaching one of their
fields that is not modelled is an llmc error that says so, never a guess.
"""

from __future__ import annotations

import copy
import json
import re
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .errors import LlmcError
from .gotemplate import Template, TemplateExecError, TemplateParseError, parse
from .gotemplate.kserve import escape_json_text, kserve_funcs, quantity_bytes
from .gotemplate.values import (
    ANY,
    BOOL,
    BYTES,
    INT32,
    INT64,
    STRING,
    GoField,
    GoType,
    Method,
    Value,
    map_of,
    ptr_to,
    slice_of,
)
from .gourl import URLError
from .gourl import parse as parse_url

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


def _declared(name: str) -> GoType:
    """A struct type used before its fields are filled in (recursive or forward references)."""
    return _TYPES.setdefault(name, GoType(name, "struct"))


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


# Named scalar types.
for _name, _kind in [("types.UID", "string"), ("v1.ResourceName", "string"), ("v1.Protocol", "string"),
                     ("v1.PullPolicy", "string"), ("v1.RestartPolicy", "string"), ("v1.DNSPolicy", "string"),
                     ("v1.ContainerRestartPolicy", "string"), ("v1.TerminationMessagePolicy", "string"),
                     ("v1.PreemptionPolicy", "string"), ("v1alpha2.AppliedConfigSource", "string"),
                     ("intstr.Type", "int64")]:
    _TYPES[_name] = GoType(_name, _kind)


def _quantity_amount(text: str) -> Fraction:
    """The exact amount of a Kubernetes quantity string (llmc's own minimal reading)."""
    m = re.fullmatch(r"([+-]?(?:\d+\.?\d*|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?", text.strip())
    if m is None:
        raise ValueError(f"quantities must match the regular expression: {text!r}")
    number, suffix = Fraction(m.group(1)), m.group(2) or ""
    binary = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
    decimal = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
    if suffix in binary:
        return number * (1 << binary[suffix])
    if suffix in decimal:
        return number * Fraction(10) ** decimal[suffix]
    return number * Fraction(10) ** int(suffix[1:])


def _quantity_text(v: Value | None) -> str | None:
    if v is None:
        return None  # (*Quantity)(nil).String() panics; fmt prints <nil>
    raw = v.x if v.x is not None else "0"
    return str(raw)


def _quantity_value(v: Value) -> int:
    raw = v.x if v.x is not None else "0"
    return quantity_bytes(_quantity_amount(str(raw)))


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
    return {"Raw": None if raw is None else list(escape_json_text(json.dumps(raw, separators=(",", ":"), ensure_ascii=False)).encode()),
            "Object": None}


RAW_EXTENSION = _struct("runtime.RawExtension", _fields("""
Raw:Raw bytes
Object:Object runtime.Object
""", {"runtime.Object": GoType("runtime.Object", "interface", opaque=True)}))
RAW_EXTENSION.from_raw = _raw_payload

TIME = GoType("v1.Time", "struct", opaque=True)
_TYPES["v1.Time"] = TIME

# Kubernetes core types, in part.
for _n in ["v1.Volume", "v1.ContainerPort", "v1.EnvFromSource", "v1.EnvVarSource", "v1.ResourceClaim",
           "v1.ContainerResizePolicy", "v1.VolumeMount", "v1.VolumeDevice", "v1.Probe", "v1.Lifecycle",
           "v1.SecurityContext", "v1.PodSecurityContext", "v1.Affinity", "v1.Toleration", "v1.HostAlias",
           "v1.PodDNSConfig", "v1.PodReadinessGate", "v1.TopologySpreadConstraint", "v1.PodOS",
           "v1.PodSchedulingGate", "v1.PodResourceClaim", "v1.EphemeralContainer", "v1.ContainerResizePolicy",
           "v1.ConfigMapKeySelector", "v1.PersistentVolumeClaimSpec", "v1.OwnerReference", "v1.ManagedFieldsEntry",
           "v1.HTTPRouteSpec", "v1.InferencePoolSpec", "v2.HorizontalPodAutoscalerBehavior",
           "v1alpha1.Fallback", "v1alpha1.AdvancedConfig", "v1alpha1.ScaleTriggers", "v1.PodTemplateSpec",
           "apis.Condition", "v1.Addressable", "v1alpha2.RouterStatus", "v1alpha2.WorkloadStatus",
           "v1.EmptyDirVolumeSource"]:
    _partial(_n)

_struct("v1.LocalObjectReference", _fields("Name string", {}))
_struct("v1.EnvVar", _fields("""
Name string
Value string
ValueFrom *v1.EnvVarSource
""", {}), partial=False)
_struct("v1.ResourceRequirements", _fields("""
Limits map[v1.ResourceName]resource.Quantity
Requests map[v1.ResourceName]resource.Quantity
Claims []v1.ResourceClaim
""", {}))
_struct("v1.Container", _fields("""
Name string
Image string
Command []string
Args []string
WorkingDir string
Ports []v1.ContainerPort
EnvFrom []v1.EnvFromSource
Env []v1.EnvVar
Resources v1.ResourceRequirements
ResizePolicy []v1.ContainerResizePolicy
RestartPolicy *v1.ContainerRestartPolicy
VolumeMounts []v1.VolumeMount
VolumeDevices []v1.VolumeDevice
LivenessProbe *v1.Probe
ReadinessProbe *v1.Probe
StartupProbe *v1.Probe
Lifecycle *v1.Lifecycle
TerminationMessagePath string
TerminationMessagePolicy v1.TerminationMessagePolicy
ImagePullPolicy v1.PullPolicy
SecurityContext *v1.SecurityContext
Stdin bool
StdinOnce bool
TTY:tty bool
""", {}), partial=True)  # RestartPolicyRules and newer fields are not modelled
_struct("v1.PodSpec", _fields("""
Volumes []v1.Volume
InitContainers []v1.Container
Containers []v1.Container
EphemeralContainers []v1.EphemeralContainer
RestartPolicy v1.RestartPolicy
TerminationGracePeriodSeconds *int64
ActiveDeadlineSeconds *int64
DNSPolicy:dnsPolicy v1.DNSPolicy
NodeSelector map[string]string
ServiceAccountName string
DeprecatedServiceAccount:serviceAccount string
AutomountServiceAccountToken *bool
NodeName string
HostNetwork bool
HostPID bool
HostIPC bool
ShareProcessNamespace *bool
SecurityContext *v1.PodSecurityContext
ImagePullSecrets []v1.LocalObjectReference
Hostname string
Subdomain string
Affinity *v1.Affinity
SchedulerName string
Tolerations []v1.Toleration
HostAliases []v1.HostAlias
PriorityClassName string
Priority *int32
DNSConfig:dnsConfig *v1.PodDNSConfig
ReadinessGates []v1.PodReadinessGate
RuntimeClassName *string
EnableServiceLinks *bool
PreemptionPolicy *v1.PreemptionPolicy
Overhead map[v1.ResourceName]resource.Quantity
TopologySpreadConstraints []v1.TopologySpreadConstraint
SetHostnameAsFQDN:setHostnameAsFQDN *bool
OS:os *v1.PodOS
HostUsers *bool
SchedulingGates []v1.PodSchedulingGate
ResourceClaims []v1.PodResourceClaim
Resources *v1.ResourceRequirements
HostnameOverride *string
""", {}))

_struct("v1.TypeMeta", _fields("""
Kind string
APIVersion:apiVersion string
""", {}))
_struct("v1.ObjectMeta", _fields("""
Name string
GenerateName string
Namespace string
SelfLink string
UID:uid types.UID
ResourceVersion string
Generation int64
CreationTimestamp v1.Time
DeletionTimestamp *v1.Time
DeletionGracePeriodSeconds *int64
Labels map[string]string
Annotations map[string]string
OwnerReferences []v1.OwnerReference
Finalizers []string
ManagedFields []v1.ManagedFieldsEntry
""", {}))

# KServe v1alpha2 types (reference 01 §1), complete.
_struct("v1alpha2.ParallelismSpec", _fields("""
Tensor *int32
Pipeline *int32
Data *int32
DataLocal *int32
DataRPCPort:dataRPCPort *int32
Expert bool
""", {}))
_struct("v1alpha2.LoRASpec", _fields("""
Adapters []v1alpha2.LLMModelSpec
MaxRank *int32
MaxAdapters *int32
MaxCPUAdapters:maxCpuAdapters *int32
""", {"[]v1alpha2.LLMModelSpec": slice_of(_declared("v1alpha2.LLMModelSpec"))}))
_struct("v1alpha2.ConfidentialSpec", _fields("""
Enabled bool
ResourceID:resourceId *string
""", {}))
_struct("v1alpha2.LLMModelSpec", _fields("""
URI:uri apis.URL
Name *string
LoRA:lora *v1alpha2.LoRASpec
Confidential *v1alpha2.ConfidentialSpec
""", {}))
_struct("v1alpha2.StorageInitializerSpec", _fields("Enabled *bool", {}))
_struct("v1alpha2.KEDAScalingSpec", _fields("""
PollingInterval *int32
CooldownPeriod *int32
InitialCooldownPeriod *int32
IdleReplicaCount *int32
Fallback *v1alpha1.Fallback
Advanced *v1alpha1.AdvancedConfig
""", {}))
_struct("v1alpha2.HPAScalingSpec", _fields("Behavior *v2.HorizontalPodAutoscalerBehavior", {}))
_struct("v1alpha2.ActuatorSpec", _fields("""
HPA:hpa *v1alpha2.HPAScalingSpec
KEDA:keda *v1alpha2.KEDAScalingSpec
""", {}))
_struct("v1alpha2.WVASpec", _fields("""
VariantCost string
ActuatorSpec:- v1alpha2.ActuatorSpec
""", {}), embedded=("ActuatorSpec",))
_struct("v1alpha2.DirectKEDAScalingSpec", _fields("""
KEDAScalingSpec:- v1alpha2.KEDAScalingSpec
Triggers []v1alpha1.ScaleTriggers
""", {}), embedded=("KEDAScalingSpec",))
_struct("v1alpha2.ScalingSpec", _fields("""
MinReplicas *int32
MaxReplicas int32
WVA:wva *v1alpha2.WVASpec
KEDA:keda *v1alpha2.DirectKEDAScalingSpec
""", {}))
_struct("v1alpha2.RolloutStrategy", _fields("""
MaxUnavailable *intstr.IntOrString
MaxSurge *intstr.IntOrString
""", {}))
_partial("v1alpha2.FileSystemTierSpec")
_struct("v1alpha2.SecondaryTierSpec", _fields("FileSystem *v1alpha2.FileSystemTierSpec", {}))
_struct("v1alpha2.KVCacheOffloadingSpec", _fields("""
CPU:cpu resource.Quantity
EvictionPolicy string
Secondary []v1alpha2.SecondaryTierSpec
""", {}))
_struct("v1alpha2.HTTPRouteSpec", _fields("""
Refs []v1.LocalObjectReference
Spec *v1.HTTPRouteSpec
""", {}))
_struct("v1alpha2.GatewayRoutesSpec", _fields("""
HTTP:http *v1alpha2.HTTPRouteSpec
Group *string
Weight *int32
""", {}))
_struct("v1alpha2.GatewayObjectReference", _fields("""
Name string
Namespace string
SectionName *string
""", {}))
_struct("v1alpha2.GatewaySpec", _fields("Refs []v1alpha2.GatewayObjectReference", {}))
_struct("v1alpha2.UntypedObjectReference", _fields("""
Name string
Namespace string
""", {}))
_struct("v1alpha2.IngressSpec", _fields("Refs []v1alpha2.UntypedObjectReference", {}))
_struct("v1alpha2.InferencePoolSpec", _fields("""
Spec *v1.InferencePoolSpec
Ref *v1.LocalObjectReference
""", {}))
_struct("v1alpha2.SchedulerConfigSpec", _fields("""
Inline *runtime.RawExtension
Ref *v1.ConfigMapKeySelector
""", {}))
_struct("v1alpha2.TokenizerSpec", _fields("Template *v1.PodSpec", {}))
_struct("v1alpha2.SchedulerSpec", _fields("""
Pool *v1alpha2.InferencePoolSpec
Labels map[string]string
Annotations map[string]string
Template *v1.PodSpec
Config *v1alpha2.SchedulerConfigSpec
Replicas *int32
Tokenizer *v1alpha2.TokenizerSpec
""", {}))
_struct("v1alpha2.RouterSpec", _fields("""
Route *v1alpha2.GatewayRoutesSpec
Gateway *v1alpha2.GatewaySpec
Ingress *v1alpha2.IngressSpec
Scheduler *v1alpha2.SchedulerSpec
""", {}))
_struct("v1alpha2.TracingSpec", _fields("""
ExporterEndpoint *string
Sampler *string
SamplerArg *string
Exporter *string
""", {}))
_struct("v1alpha2.WorkloadSpec", _fields("""
Replicas *int32
Scaling *v1alpha2.ScalingSpec
Parallelism *v1alpha2.ParallelismSpec
Labels map[string]string
Annotations map[string]string
Template *v1.PodSpec
Worker *v1.PodSpec
KVCacheOffloading:kvCacheOffloading *v1alpha2.KVCacheOffloadingSpec
RolloutStrategy *v1alpha2.RolloutStrategy
""", {}))
SPEC = _struct("v1alpha2.LLMInferenceServiceSpec", _fields("""
Model v1alpha2.LLMModelSpec
StorageInitializer *v1alpha2.StorageInitializerSpec
WorkloadSpec:- v1alpha2.WorkloadSpec
Router *v1alpha2.RouterSpec
Prefill *v1alpha2.WorkloadSpec
Tracing *v1alpha2.TracingSpec
BaseRefs []v1.LocalObjectReference
""", {}), embedded=("WorkloadSpec",))
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


def go_json_marshal(obj: Any) -> str:
    """encoding/json.Marshal of decoded JSON: compact, keys in the given order, <>& and U+2028/9 escaped."""
    return escape_json_text(json.dumps(obj, separators=(",", ":"), ensure_ascii=False))


def render_config(config: dict[str, Any], service: dict[str, Any], global_config: dict[str, Any]) -> dict[str, Any]:
    """ReplaceVariables: execute the JSON text of `config` as a Go template on the service's data.

    `config` is the merged LLMInferenceServiceConfig (metadata + spec) as decoded JSON in
    Go field order; `global_config` is keyed by templateGlobalConfig's Go field names.
    Raises LlmcError with the controller's messages.
    """
    text = go_json_marshal(config)
    if "{{" not in text:
        return copy.deepcopy(config)
    try:
        tmpl = compile_config(text)
    except TemplateParseError as e:
        raise LlmcError(f"failed to parse template config: {e.message}",
                        hint="string literals inside actions must be backtick raw strings") from None
    try:
        out = tmpl.execute(template_data(service, global_config))
    except TemplateExecError as e:
        raise LlmcError(f"failed to merge config: {e.message}") from None
    try:
        return json.loads(out)
    except json.JSONDecodeError as e:
        raise LlmcError(f"failed to unmarshal config from template: {go_json_error(out, e)}",
                        hint="a template's output is spliced into the JSON text unescaped") from None


def go_json_error(text: str, err: json.JSONDecodeError) -> str:
    """The syntax error encoding/json reports for invalid text (the common cases)."""
    pos = err.pos
    if pos >= len(text) or err.msg.startswith("Unterminated string"):
        return "unexpected end of JSON input"
    ch = text[pos]
    shown = "'\\''" if ch == "'" else ("'\"'" if ch == '"' else "'" + json.dumps(ch, ensure_ascii=False)[1:-1] + "'")
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
