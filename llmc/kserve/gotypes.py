"""The Go type model of `LLMInferenceServiceSpec`, and projection of a spec onto it.

The KServe controller never merges YAML: every spec is decoded into Go structs and
re-encoded with `encoding/json` before and after each strategic merge (`mergeSpecs`,
llmisvc/config_merge.go). That round trip drops unknown fields, drops `omitempty` zero values,
materialises fields without `omitempty` (`model.uri: ""`, `containers: null`, probe
`port: 0`, `grpc.service: null`), canonicalises Quantities and sorts map keys. llmc
reproduces it with this model:

- `GoType(name, kind, elem, fields, merge_key)`: `name` is the type as Go prints it
  (`v1alpha2.ParallelismSpec`, `*v1.PodSpec`, `map[string]string`, `int32`);
  `kind` is one of KINDS.
- `GoField(json, go, type, omitempty, inline)` in Go declaration order; `inline`
  marks an embedded struct whose fields are promoted (JSON name "").

The types are written down in `_TABLE` below, one Go struct per block, in the Go
declaration order of KServe HEAD (k8s.io/api v0.34.5, gateway-api v1.5.1,
gateway-api-inference-extension v1.5.0, keda v2.18.0 as pinned by KServe's go.mod).
Table syntax, one field per line:

    <json>[=<GoName>] <type> [?] [?0] [@<mergeKey>]

The Go name defaults to the JSON name with its first letter upper-cased; `?` is
`omitempty`, `?0` is `omitzero`, `@key` is `patchStrategy:"merge"` with that
`patchMergeKey` (a bare `@` merges a scalar list as a set). `- <type>` is an
embedded (inline) struct. Type ids are `<package>.<Name>` with packages `kserve`,
`core` (k8s core/v1), `meta` (apimachinery meta/v1), `as2` (autoscaling/v2), `gw`
(gateway-api v1), `gie` (inference extension v1), `keda` (keda v1alpha1); `_SCALARS`
gives the underlying Go type of named scalar types. The table is the single source
of field order, pointer-ness and omitempty; `tests/test_gotypes.py` checks it against
the generated CRD JSON Schema, field by field.

The model is built once per process, on first use.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from llmc.core.errors import LlmcError, Location
from llmc.core.jsoncopy import copy_json
from llmc.core.lazy_fields import LazyFields
from llmc.core.record import field, record

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

KINDS = frozenset(
    {"struct", "pointer", "slice", "map", "string", "int", "uint", "float", "bool",
     "quantity", "intorstring", "raw", "url", "time", "any"}
)

# How Go prints each package of the table.
_PACKAGES = {"kserve": "v1alpha2", "core": "v1", "meta": "v1", "as2": "v2", "gw": "v1", "gie": "v1", "keda": "v1alpha1"}

# Go basic types -> (kind, bits); bits bound the integers Go's decoder accepts.
_BASIC = {
    "string": ("string", 0), "bool": ("bool", 0), "float32": ("float", 32), "float64": ("float", 64),
    "int": ("int", 64), "int8": ("int", 8), "int16": ("int", 16), "int32": ("int", 32), "int64": ("int", 64),
    "uint": ("uint", 64), "uint8": ("uint", 8), "uint16": ("uint", 16), "uint32": ("uint", 32), "uint64": ("uint", 64),
}

# Named non-struct types -> underlying Go type or special kind.
_SPECIAL = {
    "resource.Quantity": "quantity",
    "intstr.IntOrString": "intorstring",
    "runtime.RawExtension": "raw",
    "v1.FieldsV1": "raw",
    "apis.URL": "url",
    "v1.Time": "time",
}

_SCALARS = {
    "types.UID": "string", "v1.AppArmorProfileType": "string", "v1.AppProtocol": "string",
    "v1.AzureDataDiskCachingMode": "string", "v1.AzureDataDiskKind": "string", "v1.CORSOrigin": "string",
    "v1.Capability": "string", "v1.ContainerRestartPolicy": "string",
    "v1.ContainerRestartRuleAction": "string", "v1.ContainerRestartRuleOnExitCodesOperator": "string",
    "v1.CookieLifetimeType": "string", "v1.DNSPolicy": "string", "v1.Duration": "string",
    "v1.EndpointPickerFailureMode": "string", "v1.GatewayDefaultScope": "string", "v1.Group": "string",
    "v1.HTTPHeaderName": "string", "v1.HTTPMethod": "string", "v1.HTTPMethodWithWildcard": "string",
    "v1.HTTPPathModifierType": "string", "v1.HTTPRouteExternalAuthProtocol": "string",
    "v1.HTTPRouteFilterType": "string", "v1.HTTPRouteRetryStatusCode": "int", "v1.HeaderMatchType": "string",
    "v1.HostPathType": "string", "v1.Hostname": "string", "v1.Kind": "string", "v1.LabelKey": "string",
    "v1.LabelSelectorOperator": "string", "v1.LabelValue": "string",
    "v1.ManagedFieldsOperationType": "string", "v1.MountPropagationMode": "string", "v1.Namespace": "string",
    "v1.NodeInclusionPolicy": "string", "v1.NodeSelectorOperator": "string", "v1.OSName": "string",
    "v1.ObjectName": "string", "v1.PathMatchType": "string", "v1.PersistentVolumeAccessMode": "string",
    "v1.PersistentVolumeMode": "string", "v1.PodConditionType": "string",
    "v1.PodFSGroupChangePolicy": "string", "v1.PodSELinuxChangePolicy": "string", "v1.PortNumber": "int32",
    "v1.PreciseHostname": "string", "v1.PreemptionPolicy": "string", "v1.ProcMountType": "string",
    "v1.Protocol": "string", "v1.PullPolicy": "string", "v1.QueryParamMatchType": "string",
    "v1.RecursiveReadOnlyMode": "string", "v1.ResourceName": "string",
    "v1.ResourceResizeRestartPolicy": "string", "v1.RestartPolicy": "string",
    "v1.SeccompProfileType": "string", "v1.SectionName": "string", "v1.SessionPersistenceType": "string",
    "v1.Signal": "string", "v1.StorageMedium": "string", "v1.SupplementalGroupsPolicy": "string",
    "v1.TaintEffect": "string", "v1.TerminationMessagePolicy": "string", "v1.TolerationOperator": "string",
    "v1.URIScheme": "string", "v1.UnsatisfiableConstraintAction": "string",
    "v2.HPAScalingPolicyType": "string", "v2.MetricTargetType": "string", "v2.ScalingPolicySelect": "string",
}


_TABLE = """
kserve.LLMInferenceServiceSpec
  model kserve.LLMModelSpec
  storageInitializer *kserve.StorageInitializerSpec ?
  - kserve.WorkloadSpec
  router *kserve.RouterSpec ?
  prefill *kserve.WorkloadSpec ?
  tracing *kserve.TracingSpec ?
  baseRefs []core.LocalObjectReference ?
kserve.LLMModelSpec
  uri=URI apis.URL
  name *string ?
  lora=LoRA *kserve.LoRASpec ?
  confidential *kserve.ConfidentialSpec ?
kserve.LoRASpec
  adapters []kserve.LLMModelSpec ?
  maxRank *int32 ?
  maxAdapters *int32 ?
  maxCpuAdapters *int32 ?
kserve.ConfidentialSpec
  enabled bool
  resourceId *string ?
kserve.StorageInitializerSpec
  enabled *bool ?
kserve.WorkloadSpec
  replicas *int32 ?
  scaling *kserve.ScalingSpec ?
  parallelism *kserve.ParallelismSpec ?
  labels map[string]string ?
  annotations map[string]string ?
  template *core.PodSpec ?
  worker *core.PodSpec ?
  kvCacheOffloading=KVCacheOffloading *kserve.KVCacheOffloadingSpec ?
  rolloutStrategy *kserve.RolloutStrategy ?
kserve.ScalingSpec
  minReplicas *int32 ?
  maxReplicas int32
  wva=WVA *kserve.WVASpec ?
  keda=KEDA *kserve.DirectKEDAScalingSpec ?
kserve.WVASpec
  variantCost string ?
  - kserve.ActuatorSpec
kserve.ActuatorSpec
  hpa=HPA *kserve.HPAScalingSpec ?
  keda=KEDA *kserve.KEDAScalingSpec ?
kserve.HPAScalingSpec
  behavior *as2.HorizontalPodAutoscalerBehavior ?
as2.HorizontalPodAutoscalerBehavior
  scaleUp *as2.HPAScalingRules ?
  scaleDown *as2.HPAScalingRules ?
as2.HPAScalingRules
  stabilizationWindowSeconds *int32 ?
  selectPolicy *v2.ScalingPolicySelect ?
  policies []as2.HPAScalingPolicy ?
  tolerance *resource.Quantity ?
as2.HPAScalingPolicy
  type v2.HPAScalingPolicyType
  value int32
  periodSeconds int32
kserve.KEDAScalingSpec
  pollingInterval *int32 ?
  cooldownPeriod *int32 ?
  initialCooldownPeriod *int32 ?
  idleReplicaCount *int32 ?
  fallback *keda.Fallback ?
  advanced *keda.AdvancedConfig ?
keda.Fallback
  failureThreshold int32
  replicas int32
  behavior string ?
keda.AdvancedConfig
  horizontalPodAutoscalerConfig *keda.HorizontalPodAutoscalerConfig ?
  restoreToOriginalReplicaCount bool ?
  scalingModifiers keda.ScalingModifiers ?
keda.HorizontalPodAutoscalerConfig
  behavior *as2.HorizontalPodAutoscalerBehavior ?
  name string ?
keda.ScalingModifiers
  formula string ?
  target string ?
  activationTarget string ?
  metricType v2.MetricTargetType ?
kserve.DirectKEDAScalingSpec
  - kserve.KEDAScalingSpec
  triggers []keda.ScaleTriggers
keda.ScaleTriggers
  type string
  name string ?
  useCachedMetrics bool ?
  metadata map[string]string
  authenticationRef *keda.AuthenticationRef ?
  metricType v2.MetricTargetType ?
keda.AuthenticationRef
  name string
  kind string ?
kserve.ParallelismSpec
  tensor *int32 ?
  pipeline *int32 ?
  data *int32 ?
  dataLocal *int32 ?
  dataRPCPort *int32 ?
  expert bool ?
core.PodSpec
  volumes []core.Volume ? @name
  initContainers []core.Container ? @name
  containers []core.Container @name
  ephemeralContainers []core.EphemeralContainer ? @name
  restartPolicy v1.RestartPolicy ?
  terminationGracePeriodSeconds *int64 ?
  activeDeadlineSeconds *int64 ?
  dnsPolicy=DNSPolicy v1.DNSPolicy ?
  nodeSelector map[string]string ?
  serviceAccountName string ?
  serviceAccount=DeprecatedServiceAccount string ?
  automountServiceAccountToken *bool ?
  nodeName string ?
  hostNetwork bool ?
  hostPID bool ?
  hostIPC bool ?
  shareProcessNamespace *bool ?
  securityContext *core.PodSecurityContext ?
  imagePullSecrets []core.LocalObjectReference ? @name
  hostname string ?
  subdomain string ?
  affinity *core.Affinity ?
  schedulerName string ?
  tolerations []core.Toleration ?
  hostAliases []core.HostAlias ? @ip
  priorityClassName string ?
  priority *int32 ?
  dnsConfig=DNSConfig *core.PodDNSConfig ?
  readinessGates []core.PodReadinessGate ?
  runtimeClassName *string ?
  enableServiceLinks *bool ?
  preemptionPolicy *v1.PreemptionPolicy ?
  overhead map[v1.ResourceName]resource.Quantity ?
  topologySpreadConstraints []core.TopologySpreadConstraint ? @topologyKey
  setHostnameAsFQDN *bool ?
  os=OS *core.PodOS ?
  hostUsers *bool ?
  schedulingGates []core.PodSchedulingGate ? @name
  resourceClaims []core.PodResourceClaim ? @name
  resources *core.ResourceRequirements ?
  hostnameOverride *string ?
core.Volume
  name string
  - core.VolumeSource
core.VolumeSource
  hostPath *core.HostPathVolumeSource ?
  emptyDir *core.EmptyDirVolumeSource ?
  gcePersistentDisk=GCEPersistentDisk *core.GCEPersistentDiskVolumeSource ?
  awsElasticBlockStore=AWSElasticBlockStore *core.AWSElasticBlockStoreVolumeSource ?
  gitRepo *core.GitRepoVolumeSource ?
  secret *core.SecretVolumeSource ?
  nfs=NFS *core.NFSVolumeSource ?
  iscsi=ISCSI *core.ISCSIVolumeSource ?
  glusterfs *core.GlusterfsVolumeSource ?
  persistentVolumeClaim *core.PersistentVolumeClaimVolumeSource ?
  rbd=RBD *core.RBDVolumeSource ?
  flexVolume *core.FlexVolumeSource ?
  cinder *core.CinderVolumeSource ?
  cephfs=CephFS *core.CephFSVolumeSource ?
  flocker *core.FlockerVolumeSource ?
  downwardAPI *core.DownwardAPIVolumeSource ?
  fc=FC *core.FCVolumeSource ?
  azureFile *core.AzureFileVolumeSource ?
  configMap *core.ConfigMapVolumeSource ?
  vsphereVolume *core.VsphereVirtualDiskVolumeSource ?
  quobyte *core.QuobyteVolumeSource ?
  azureDisk *core.AzureDiskVolumeSource ?
  photonPersistentDisk *core.PhotonPersistentDiskVolumeSource ?
  projected *core.ProjectedVolumeSource ?
  portworxVolume *core.PortworxVolumeSource ?
  scaleIO *core.ScaleIOVolumeSource ?
  storageos=StorageOS *core.StorageOSVolumeSource ?
  csi=CSI *core.CSIVolumeSource ?
  ephemeral *core.EphemeralVolumeSource ?
  image *core.ImageVolumeSource ?
core.HostPathVolumeSource
  path string
  type *v1.HostPathType ?
core.EmptyDirVolumeSource
  medium v1.StorageMedium ?
  sizeLimit *resource.Quantity ?
core.GCEPersistentDiskVolumeSource
  pdName=PDName string
  fsType=FSType string ?
  partition int32 ?
  readOnly bool ?
core.AWSElasticBlockStoreVolumeSource
  volumeID string
  fsType=FSType string ?
  partition int32 ?
  readOnly bool ?
core.GitRepoVolumeSource
  repository string
  revision string ?
  directory string ?
core.SecretVolumeSource
  secretName string ?
  items []core.KeyToPath ?
  defaultMode *int32 ?
  optional *bool ?
core.KeyToPath
  key string
  path string
  mode *int32 ?
core.NFSVolumeSource
  server string
  path string
  readOnly bool ?
core.ISCSIVolumeSource
  targetPortal string
  iqn=IQN string
  lun int32
  iscsiInterface=ISCSIInterface string ?
  fsType=FSType string ?
  readOnly bool ?
  portals []string ?
  chapAuthDiscovery=DiscoveryCHAPAuth bool ?
  chapAuthSession=SessionCHAPAuth bool ?
  secretRef *core.LocalObjectReference ?
  initiatorName *string ?
core.LocalObjectReference
  name string ?
core.GlusterfsVolumeSource
  endpoints=EndpointsName string
  path string
  readOnly bool ?
core.PersistentVolumeClaimVolumeSource
  claimName string
  readOnly bool ?
core.RBDVolumeSource
  monitors=CephMonitors []string
  image=RBDImage string
  fsType=FSType string ?
  pool=RBDPool string ?
  user=RadosUser string ?
  keyring string ?
  secretRef *core.LocalObjectReference ?
  readOnly bool ?
core.FlexVolumeSource
  driver string
  fsType=FSType string ?
  secretRef *core.LocalObjectReference ?
  readOnly bool ?
  options map[string]string ?
core.CinderVolumeSource
  volumeID string
  fsType=FSType string ?
  readOnly bool ?
  secretRef *core.LocalObjectReference ?
core.CephFSVolumeSource
  monitors []string
  path string ?
  user string ?
  secretFile string ?
  secretRef *core.LocalObjectReference ?
  readOnly bool ?
core.FlockerVolumeSource
  datasetName string ?
  datasetUUID string ?
core.DownwardAPIVolumeSource
  items []core.DownwardAPIVolumeFile ?
  defaultMode *int32 ?
core.DownwardAPIVolumeFile
  path string
  fieldRef *core.ObjectFieldSelector ?
  resourceFieldRef *core.ResourceFieldSelector ?
  mode *int32 ?
core.ObjectFieldSelector
  apiVersion=APIVersion string ?
  fieldPath string
core.ResourceFieldSelector
  containerName string ?
  resource string
  divisor resource.Quantity ?
core.FCVolumeSource
  targetWWNs []string ?
  lun *int32 ?
  fsType=FSType string ?
  readOnly bool ?
  wwids=WWIDs []string ?
core.AzureFileVolumeSource
  secretName string
  shareName string
  readOnly bool ?
core.ConfigMapVolumeSource
  - core.LocalObjectReference
  items []core.KeyToPath ?
  defaultMode *int32 ?
  optional *bool ?
core.VsphereVirtualDiskVolumeSource
  volumePath string
  fsType=FSType string ?
  storagePolicyName string ?
  storagePolicyID string ?
core.QuobyteVolumeSource
  registry string
  volume string
  readOnly bool ?
  user string ?
  group string ?
  tenant string ?
core.AzureDiskVolumeSource
  diskName string
  diskURI=DataDiskURI string
  cachingMode *v1.AzureDataDiskCachingMode ?
  fsType=FSType *string ?
  readOnly *bool ?
  kind *v1.AzureDataDiskKind ?
core.PhotonPersistentDiskVolumeSource
  pdID string
  fsType=FSType string ?
core.ProjectedVolumeSource
  sources []core.VolumeProjection
  defaultMode *int32 ?
core.VolumeProjection
  secret *core.SecretProjection ?
  downwardAPI *core.DownwardAPIProjection ?
  configMap *core.ConfigMapProjection ?
  serviceAccountToken *core.ServiceAccountTokenProjection ?
  clusterTrustBundle *core.ClusterTrustBundleProjection ?
  podCertificate *core.PodCertificateProjection ?
core.SecretProjection
  - core.LocalObjectReference
  items []core.KeyToPath ?
  optional *bool ?
core.DownwardAPIProjection
  items []core.DownwardAPIVolumeFile ?
core.ConfigMapProjection
  - core.LocalObjectReference
  items []core.KeyToPath ?
  optional *bool ?
core.ServiceAccountTokenProjection
  audience string ?
  expirationSeconds *int64 ?
  path string
core.ClusterTrustBundleProjection
  name *string ?
  signerName *string ?
  labelSelector *meta.LabelSelector ?
  optional *bool ?
  path string
meta.LabelSelector
  matchLabels map[string]string ?
  matchExpressions []meta.LabelSelectorRequirement ?
meta.LabelSelectorRequirement
  key string
  operator v1.LabelSelectorOperator
  values []string ?
core.PodCertificateProjection
  signerName string ?
  keyType string ?
  maxExpirationSeconds *int32 ?
  credentialBundlePath string ?
  keyPath string ?
  certificateChainPath string ?
core.PortworxVolumeSource
  volumeID string
  fsType=FSType string ?
  readOnly bool ?
core.ScaleIOVolumeSource
  gateway string
  system string
  secretRef *core.LocalObjectReference
  sslEnabled=SSLEnabled bool ?
  protectionDomain string ?
  storagePool string ?
  storageMode string ?
  volumeName string ?
  fsType=FSType string ?
  readOnly bool ?
core.StorageOSVolumeSource
  volumeName string ?
  volumeNamespace string ?
  fsType=FSType string ?
  readOnly bool ?
  secretRef *core.LocalObjectReference ?
core.CSIVolumeSource
  driver string
  readOnly *bool ?
  fsType=FSType *string ?
  volumeAttributes map[string]string ?
  nodePublishSecretRef *core.LocalObjectReference ?
core.EphemeralVolumeSource
  volumeClaimTemplate *core.PersistentVolumeClaimTemplate ?
core.PersistentVolumeClaimTemplate
  metadata=ObjectMeta meta.ObjectMeta ?
  spec core.PersistentVolumeClaimSpec
meta.ObjectMeta
  name string ?
  generateName string ?
  namespace string ?
  selfLink string ?
  uid=UID types.UID ?
  resourceVersion string ?
  generation int64 ?
  creationTimestamp v1.Time ? ?0
  deletionTimestamp *v1.Time ?
  deletionGracePeriodSeconds *int64 ?
  labels map[string]string ?
  annotations map[string]string ?
  ownerReferences []meta.OwnerReference ? @uid
  finalizers []string ? @
  managedFields []meta.ManagedFieldsEntry ?
meta.OwnerReference
  apiVersion=APIVersion string
  kind string
  name string
  uid=UID types.UID
  controller *bool ?
  blockOwnerDeletion *bool ?
meta.ManagedFieldsEntry
  manager string ?
  operation v1.ManagedFieldsOperationType ?
  apiVersion=APIVersion string ?
  time *v1.Time ?
  fieldsType string ?
  fieldsV1 *v1.FieldsV1 ?
  subresource string ?
core.PersistentVolumeClaimSpec
  accessModes []v1.PersistentVolumeAccessMode ?
  selector *meta.LabelSelector ?
  resources core.VolumeResourceRequirements ?
  volumeName string ?
  storageClassName *string ?
  volumeMode *v1.PersistentVolumeMode ?
  dataSource *core.TypedLocalObjectReference ?
  dataSourceRef *core.TypedObjectReference ?
  volumeAttributesClassName *string ?
core.VolumeResourceRequirements
  limits map[v1.ResourceName]resource.Quantity ?
  requests map[v1.ResourceName]resource.Quantity ?
core.TypedLocalObjectReference
  apiGroup=APIGroup *string
  kind string
  name string
core.TypedObjectReference
  apiGroup=APIGroup *string
  kind string
  name string
  namespace *string ?
core.ImageVolumeSource
  reference string ?
  pullPolicy v1.PullPolicy ?
core.Container
  name string
  image string ?
  command []string ?
  args []string ?
  workingDir string ?
  ports []core.ContainerPort ? @containerPort
  envFrom []core.EnvFromSource ?
  env []core.EnvVar ? @name
  resources core.ResourceRequirements ?
  resizePolicy []core.ContainerResizePolicy ?
  restartPolicy *v1.ContainerRestartPolicy ?
  restartPolicyRules []core.ContainerRestartRule ?
  volumeMounts []core.VolumeMount ? @mountPath
  volumeDevices []core.VolumeDevice ? @devicePath
  livenessProbe *core.Probe ?
  readinessProbe *core.Probe ?
  startupProbe *core.Probe ?
  lifecycle *core.Lifecycle ?
  terminationMessagePath string ?
  terminationMessagePolicy v1.TerminationMessagePolicy ?
  imagePullPolicy v1.PullPolicy ?
  securityContext *core.SecurityContext ?
  stdin bool ?
  stdinOnce bool ?
  tty=TTY bool ?
core.ContainerPort
  name string ?
  hostPort int32 ?
  containerPort int32
  protocol v1.Protocol ?
  hostIP string ?
core.EnvFromSource
  prefix string ?
  configMapRef *core.ConfigMapEnvSource ?
  secretRef *core.SecretEnvSource ?
core.ConfigMapEnvSource
  - core.LocalObjectReference
  optional *bool ?
core.SecretEnvSource
  - core.LocalObjectReference
  optional *bool ?
core.EnvVar
  name string
  value string ?
  valueFrom *core.EnvVarSource ?
core.EnvVarSource
  fieldRef *core.ObjectFieldSelector ?
  resourceFieldRef *core.ResourceFieldSelector ?
  configMapKeyRef *core.ConfigMapKeySelector ?
  secretKeyRef *core.SecretKeySelector ?
  fileKeyRef *core.FileKeySelector ?
core.ConfigMapKeySelector
  - core.LocalObjectReference
  key string
  optional *bool ?
core.SecretKeySelector
  - core.LocalObjectReference
  key string
  optional *bool ?
core.FileKeySelector
  volumeName string
  path string
  key string
  optional *bool ?
core.ResourceRequirements
  limits map[v1.ResourceName]resource.Quantity ?
  requests map[v1.ResourceName]resource.Quantity ?
  claims []core.ResourceClaim ?
core.ResourceClaim
  name string
  request string ?
core.ContainerResizePolicy
  resourceName v1.ResourceName
  restartPolicy v1.ResourceResizeRestartPolicy
core.ContainerRestartRule
  action v1.ContainerRestartRuleAction ?
  exitCodes *core.ContainerRestartRuleOnExitCodes ?
core.ContainerRestartRuleOnExitCodes
  operator v1.ContainerRestartRuleOnExitCodesOperator ?
  values []int32 ?
core.VolumeMount
  name string
  readOnly bool ?
  recursiveReadOnly *v1.RecursiveReadOnlyMode ?
  mountPath string
  subPath string ?
  mountPropagation *v1.MountPropagationMode ?
  subPathExpr string ?
core.VolumeDevice
  name string
  devicePath string
core.Probe
  - core.ProbeHandler
  initialDelaySeconds int32 ?
  timeoutSeconds int32 ?
  periodSeconds int32 ?
  successThreshold int32 ?
  failureThreshold int32 ?
  terminationGracePeriodSeconds *int64 ?
core.ProbeHandler
  exec *core.ExecAction ?
  httpGet=HTTPGet *core.HTTPGetAction ?
  tcpSocket=TCPSocket *core.TCPSocketAction ?
  grpc=GRPC *core.GRPCAction ?
core.ExecAction
  command []string ?
core.HTTPGetAction
  path string ?
  port intstr.IntOrString
  host string ?
  scheme v1.URIScheme ?
  httpHeaders=HTTPHeaders []core.HTTPHeader ?
core.HTTPHeader
  name string
  value string
core.TCPSocketAction
  port intstr.IntOrString
  host string ?
core.GRPCAction
  port int32
  service *string
core.Lifecycle
  postStart *core.LifecycleHandler ?
  preStop *core.LifecycleHandler ?
  stopSignal *v1.Signal ?
core.LifecycleHandler
  exec *core.ExecAction ?
  httpGet=HTTPGet *core.HTTPGetAction ?
  tcpSocket=TCPSocket *core.TCPSocketAction ?
  sleep *core.SleepAction ?
core.SleepAction
  seconds int64
core.SecurityContext
  capabilities *core.Capabilities ?
  privileged *bool ?
  seLinuxOptions=SELinuxOptions *core.SELinuxOptions ?
  windowsOptions *core.WindowsSecurityContextOptions ?
  runAsUser *int64 ?
  runAsGroup *int64 ?
  runAsNonRoot *bool ?
  readOnlyRootFilesystem *bool ?
  allowPrivilegeEscalation *bool ?
  procMount *v1.ProcMountType ?
  seccompProfile *core.SeccompProfile ?
  appArmorProfile *core.AppArmorProfile ?
core.Capabilities
  add []v1.Capability ?
  drop []v1.Capability ?
core.SELinuxOptions
  user string ?
  role string ?
  type string ?
  level string ?
core.WindowsSecurityContextOptions
  gmsaCredentialSpecName=GMSACredentialSpecName *string ?
  gmsaCredentialSpec=GMSACredentialSpec *string ?
  runAsUserName *string ?
  hostProcess *bool ?
core.SeccompProfile
  type v1.SeccompProfileType
  localhostProfile *string ?
core.AppArmorProfile
  type v1.AppArmorProfileType
  localhostProfile *string ?
core.EphemeralContainer
  - core.EphemeralContainerCommon
  targetContainerName string ?
core.EphemeralContainerCommon
  name string
  image string ?
  command []string ?
  args []string ?
  workingDir string ?
  ports []core.ContainerPort ? @containerPort
  envFrom []core.EnvFromSource ?
  env []core.EnvVar ? @name
  resources core.ResourceRequirements ?
  resizePolicy []core.ContainerResizePolicy ?
  restartPolicy *v1.ContainerRestartPolicy ?
  restartPolicyRules []core.ContainerRestartRule ?
  volumeMounts []core.VolumeMount ? @mountPath
  volumeDevices []core.VolumeDevice ? @devicePath
  livenessProbe *core.Probe ?
  readinessProbe *core.Probe ?
  startupProbe *core.Probe ?
  lifecycle *core.Lifecycle ?
  terminationMessagePath string ?
  terminationMessagePolicy v1.TerminationMessagePolicy ?
  imagePullPolicy v1.PullPolicy ?
  securityContext *core.SecurityContext ?
  stdin bool ?
  stdinOnce bool ?
  tty=TTY bool ?
core.PodSecurityContext
  seLinuxOptions=SELinuxOptions *core.SELinuxOptions ?
  windowsOptions *core.WindowsSecurityContextOptions ?
  runAsUser *int64 ?
  runAsGroup *int64 ?
  runAsNonRoot *bool ?
  supplementalGroups []int64 ?
  supplementalGroupsPolicy *v1.SupplementalGroupsPolicy ?
  fsGroup=FSGroup *int64 ?
  sysctls []core.Sysctl ?
  fsGroupChangePolicy=FSGroupChangePolicy *v1.PodFSGroupChangePolicy ?
  seccompProfile *core.SeccompProfile ?
  appArmorProfile *core.AppArmorProfile ?
  seLinuxChangePolicy=SELinuxChangePolicy *v1.PodSELinuxChangePolicy ?
core.Sysctl
  name string
  value string
core.Affinity
  nodeAffinity *core.NodeAffinity ?
  podAffinity *core.PodAffinity ?
  podAntiAffinity *core.PodAntiAffinity ?
core.NodeAffinity
  requiredDuringSchedulingIgnoredDuringExecution *core.NodeSelector ?
  preferredDuringSchedulingIgnoredDuringExecution []core.PreferredSchedulingTerm ?
core.NodeSelector
  nodeSelectorTerms []core.NodeSelectorTerm
core.NodeSelectorTerm
  matchExpressions []core.NodeSelectorRequirement ?
  matchFields []core.NodeSelectorRequirement ?
core.NodeSelectorRequirement
  key string
  operator v1.NodeSelectorOperator
  values []string ?
core.PreferredSchedulingTerm
  weight int32
  preference core.NodeSelectorTerm
core.PodAffinity
  requiredDuringSchedulingIgnoredDuringExecution []core.PodAffinityTerm ?
  preferredDuringSchedulingIgnoredDuringExecution []core.WeightedPodAffinityTerm ?
core.PodAffinityTerm
  labelSelector *meta.LabelSelector ?
  namespaces []string ?
  topologyKey string
  namespaceSelector *meta.LabelSelector ?
  matchLabelKeys []string ?
  mismatchLabelKeys []string ?
core.WeightedPodAffinityTerm
  weight int32
  podAffinityTerm core.PodAffinityTerm
core.PodAntiAffinity
  requiredDuringSchedulingIgnoredDuringExecution []core.PodAffinityTerm ?
  preferredDuringSchedulingIgnoredDuringExecution []core.WeightedPodAffinityTerm ?
core.Toleration
  key string ?
  operator v1.TolerationOperator ?
  value string ?
  effect v1.TaintEffect ?
  tolerationSeconds *int64 ?
core.HostAlias
  ip=IP string
  hostnames []string ?
core.PodDNSConfig
  nameservers []string ?
  searches []string ?
  options []core.PodDNSConfigOption ?
core.PodDNSConfigOption
  name string ?
  value *string ?
core.PodReadinessGate
  conditionType v1.PodConditionType
core.TopologySpreadConstraint
  maxSkew int32
  topologyKey string
  whenUnsatisfiable v1.UnsatisfiableConstraintAction
  labelSelector *meta.LabelSelector ?
  minDomains *int32 ?
  nodeAffinityPolicy *v1.NodeInclusionPolicy ?
  nodeTaintsPolicy *v1.NodeInclusionPolicy ?
  matchLabelKeys []string ?
core.PodOS
  name v1.OSName
core.PodSchedulingGate
  name string
core.PodResourceClaim
  name string
  resourceClaimName *string ?
  resourceClaimTemplateName *string ?
kserve.KVCacheOffloadingSpec
  cpu=CPU resource.Quantity
  evictionPolicy string ?
  secondary []kserve.SecondaryTierSpec ?
kserve.SecondaryTierSpec
  fileSystem *kserve.FileSystemTierSpec ?
kserve.FileSystemTierSpec
  emptyDir *kserve.EmptyDirTierSpec ?
  pvc=PVC *kserve.PVCTierSpec ?
kserve.EmptyDirTierSpec
  size resource.Quantity
kserve.PVCTierSpec
  spec *core.PersistentVolumeClaimSpec ?
  ref *kserve.PVCRefTierSpec ?
kserve.PVCRefTierSpec
  name string
  path string ?
kserve.RolloutStrategy
  maxUnavailable *intstr.IntOrString ?
  maxSurge *intstr.IntOrString ?
kserve.RouterSpec
  route *kserve.GatewayRoutesSpec ?
  gateway *kserve.GatewaySpec ?
  ingress *kserve.IngressSpec ?
  scheduler *kserve.SchedulerSpec ?
kserve.GatewayRoutesSpec
  http=HTTP *kserve.HTTPRouteSpec ?
  group *string ?
  weight *int32 ?
kserve.HTTPRouteSpec
  refs []core.LocalObjectReference ?
  spec *gw.HTTPRouteSpec ?
gw.HTTPRouteSpec
  - gw.CommonRouteSpec
  hostnames []v1.Hostname ?
  rules []gw.HTTPRouteRule ?
gw.CommonRouteSpec
  parentRefs []gw.ParentReference ?
  useDefaultGateways v1.GatewayDefaultScope ?
gw.ParentReference
  group *v1.Group ?
  kind *v1.Kind ?
  namespace *v1.Namespace ?
  name v1.ObjectName
  sectionName *v1.SectionName ?
  port *int32 ?
gw.HTTPRouteRule
  name *v1.SectionName ?
  matches []gw.HTTPRouteMatch ?
  filters []gw.HTTPRouteFilter ?
  backendRefs []gw.HTTPBackendRef ?
  timeouts *gw.HTTPRouteTimeouts ?
  retry *gw.HTTPRouteRetry ?
  sessionPersistence *gw.SessionPersistence ?
gw.HTTPRouteMatch
  path *gw.HTTPPathMatch ?
  headers []gw.HTTPHeaderMatch ?
  queryParams []gw.HTTPQueryParamMatch ?
  method *v1.HTTPMethod ?
gw.HTTPPathMatch
  type *v1.PathMatchType ?
  value *string ?
gw.HTTPHeaderMatch
  type *v1.HeaderMatchType ?
  name v1.HTTPHeaderName
  value string
gw.HTTPQueryParamMatch
  type *v1.QueryParamMatchType ?
  name v1.HTTPHeaderName
  value string
gw.HTTPRouteFilter
  type v1.HTTPRouteFilterType
  requestHeaderModifier *gw.HTTPHeaderFilter ?
  responseHeaderModifier *gw.HTTPHeaderFilter ?
  requestMirror *gw.HTTPRequestMirrorFilter ?
  requestRedirect *gw.HTTPRequestRedirectFilter ?
  urlRewrite=URLRewrite *gw.HTTPURLRewriteFilter ?
  cors=CORS *gw.HTTPCORSFilter ?
  externalAuth *gw.HTTPExternalAuthFilter ?
  extensionRef *gw.LocalObjectReference ?
gw.HTTPHeaderFilter
  set []gw.HTTPHeader ?
  add []gw.HTTPHeader ?
  remove []string ?
gw.HTTPHeader
  name v1.HTTPHeaderName
  value string
gw.HTTPRequestMirrorFilter
  backendRef gw.BackendObjectReference
  percent *int32 ?
  fraction *gw.Fraction ?
gw.BackendObjectReference
  group *v1.Group ?
  kind *v1.Kind ?
  name v1.ObjectName
  namespace *v1.Namespace ?
  port *int32 ?
gw.Fraction
  numerator int32
  denominator *int32 ?
gw.HTTPRequestRedirectFilter
  scheme *string ?
  hostname *v1.PreciseHostname ?
  path *gw.HTTPPathModifier ?
  port *int32 ?
  statusCode *int ?
gw.HTTPPathModifier
  type v1.HTTPPathModifierType
  replaceFullPath *string ?
  replacePrefixMatch *string ?
gw.HTTPURLRewriteFilter
  hostname *v1.PreciseHostname ?
  path *gw.HTTPPathModifier ?
gw.HTTPCORSFilter
  allowOrigins []v1.CORSOrigin ?
  allowCredentials *bool ?
  allowMethods []v1.HTTPMethodWithWildcard ?
  allowHeaders []v1.HTTPHeaderName ?
  exposeHeaders []v1.HTTPHeaderName ?
  maxAge int32 ?
gw.HTTPExternalAuthFilter
  protocol=ExternalAuthProtocol v1.HTTPRouteExternalAuthProtocol ?
  backendRef gw.BackendObjectReference ?
  grpc=GRPCAuthConfig *gw.GRPCAuthConfig ?
  http=HTTPAuthConfig *gw.HTTPAuthConfig ?
  forwardBody *gw.ForwardBodyConfig ?
gw.GRPCAuthConfig
  allowedHeaders=AllowedRequestHeaders []string ?
gw.HTTPAuthConfig
  path string ?
  allowedHeaders=AllowedRequestHeaders []string ?
  allowedResponseHeaders []string ?
gw.ForwardBodyConfig
  maxSize uint16 ?
gw.LocalObjectReference
  group v1.Group
  kind v1.Kind
  name v1.ObjectName
gw.HTTPBackendRef
  - gw.BackendRef
  filters []gw.HTTPRouteFilter ?
gw.BackendRef
  - gw.BackendObjectReference
  weight *int32 ?
gw.HTTPRouteTimeouts
  request *v1.Duration ?
  backendRequest *v1.Duration ?
gw.HTTPRouteRetry
  codes []v1.HTTPRouteRetryStatusCode ?
  attempts *int ?
  backoff *v1.Duration ?
gw.SessionPersistence
  sessionName *string ?
  absoluteTimeout *v1.Duration ?
  idleTimeout *v1.Duration ?
  type *v1.SessionPersistenceType ?
  cookieConfig *gw.CookieConfig ?
gw.CookieConfig
  lifetimeType *v1.CookieLifetimeType ?
kserve.GatewaySpec
  refs []kserve.GatewayObjectReference ?
kserve.GatewayObjectReference
  - kserve.UntypedObjectReference
  sectionName *v1.SectionName ?
kserve.UntypedObjectReference
  name v1.ObjectName ?
  namespace v1.Namespace ?
kserve.IngressSpec
  refs []kserve.UntypedObjectReference ?
kserve.SchedulerSpec
  pool *kserve.InferencePoolSpec ?
  labels map[string]string ?
  annotations map[string]string ?
  template *core.PodSpec ?
  config *kserve.SchedulerConfigSpec ?
  replicas *int32 ?
  tokenizer *kserve.TokenizerSpec ?
kserve.InferencePoolSpec
  spec *gie.InferencePoolSpec ?
  ref *core.LocalObjectReference ?
gie.InferencePoolSpec
  selector gie.LabelSelector ?0
  targetPorts []gie.Port ?
  appProtocol v1.AppProtocol ?
  endpointPickerRef gie.EndpointPickerRef ?0
gie.LabelSelector
  matchLabels map[v1.LabelKey]v1.LabelValue ?
gie.Port
  number v1.PortNumber ?
gie.EndpointPickerRef
  group *v1.Group ?
  kind v1.Kind ?
  name v1.ObjectName ?
  port *gie.Port ?
  failureMode v1.EndpointPickerFailureMode ?
kserve.SchedulerConfigSpec
  inline *runtime.RawExtension ?
  ref *core.ConfigMapKeySelector ?
kserve.TokenizerSpec
  template *core.PodSpec ?
kserve.TracingSpec
  exporterEndpoint *string ?
  sampler *string ?
  samplerArg *string ?
  exporter *string ?
"""


@record(eq=False)
class GoField:
    """One field of a Go struct: its JSON name ("" when inline), Go name, type and tag options."""

    json: str
    go: str
    type: GoType
    omitempty: bool = False
    inline: bool = False
    omitzero: bool = False

    def __repr__(self) -> str:
        return f"GoField({self.go} {self.type.name} json:{self.json!r})"


@record(eq=False)
class GoType:
    """A Go type: `kind` in KINDS; `elem` for pointer/slice/map; `fields` for structs.

    `merge_key` is set on the slice type of a field tagged `patchStrategy:"merge"`
    (each such field has its own slice type); `set_merge` marks a merge-strategy
    list of scalars. Slices without either are replaced wholesale by a patch.
    """

    name: str
    kind: str
    elem: GoType | None = None
    fields: tuple[GoField, ...] = ()
    merge_key: str | None = None
    set_merge: bool = False
    bits: int = 0
    _by_json: dict[str, GoField] | None = field(default=None, repr=False)
    _by_fold: dict[str, GoField] | None = field(default=None, repr=False)
    # (JSON name, field, whether an absent field is still encoded): see `_encoding_plan`
    _plan: tuple[tuple[str, GoField, bool], ...] | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        return f"GoType({self.name})"

    @property
    def struct(self) -> GoType | None:
        """The struct this type is or points to, else None."""
        t = self.elem if self.kind == "pointer" else self
        return t if t is not None and t.kind == "struct" else None

    def json_fields(self) -> dict[str, GoField]:
        """The struct's JSON fields, embedded structs flattened, in encoding order."""
        if self._by_json is None:
            flat: dict[str, GoField] = {}
            for f in self.fields:
                if f.inline:
                    for name, sub in f.type.json_fields().items():
                        flat.setdefault(name, sub)
                elif f.json in flat:
                    raise AssertionError(f"duplicate JSON field {f.json} in {self.name}")
                else:
                    flat[f.json] = f
            self._by_json = flat
            self._by_fold = {}
            for name, f in flat.items():
                self._by_fold.setdefault(name.lower(), f)
        return self._by_json

    def folded(self, key: str) -> GoField | None:
        """The field Go's decoder picks for an object key: exact name, else case-insensitive."""
        fields = self.json_fields()
        hit = fields.get(key)
        if hit is None and self._by_fold is not None:
            hit = self._by_fold.get(key.lower())
        return hit


@record
class _Model:
    spec: GoType
    object_meta: GoType


def _display(type_id: str) -> str:
    pkg, _, name = type_id.partition(".")
    return f"{_PACKAGES[pkg]}.{name}" if pkg in _PACKAGES else type_id


class _TableStruct(LazyFields, GoType):
    """A struct of `_TABLE`, its fields built from its lines when first read."""


class _Builder:
    """Turns `_TABLE` into linked GoType objects (structs first, so cycles resolve; their fields on first use)."""

    def __init__(self) -> None:
        self.structs: dict[str, GoType] = {}
        self.cache: dict[str, GoType] = {}

    def build(self) -> dict[str, GoType]:
        blocks: list[tuple[str, list[str]]] = []
        for line in _TABLE.strip().splitlines():
            if not line.startswith(" "):
                blocks.append((line.strip(), []))
            else:
                blocks[-1][1].append(line.strip())
        for type_id, lines in blocks:
            struct = self.structs[type_id] = _TableStruct(_display(type_id), "struct")
            struct.defer(lambda lines=lines: tuple(self._field(line) for line in lines))
        return self.structs

    def _field(self, line: str) -> GoField:
        if line.startswith("- "):
            t = self.type_of(line[2:])
            return GoField("", t.name.rpartition(".")[2], t, inline=True)
        head, expr, *flags = line.split()
        json_name, _, go_name = head.partition("=")
        go_name = go_name or json_name[:1].upper() + json_name[1:]
        merge = [f for f in flags if f.startswith("@")]
        t = self.type_of(expr)
        if merge:
            key = merge[0][1:] or None
            t = GoType(t.name, "slice", t.elem, merge_key=key, set_merge=key is None)
        return GoField(json_name, go_name, t, omitempty="?" in flags, omitzero="?0" in flags)

    def type_of(self, expr: str) -> GoType:
        hit = self.cache.get(expr)
        if hit is not None:
            return hit
        if expr.startswith("*"):
            elem = self.type_of(expr[1:])
            t = GoType("*" + elem.name, "pointer", elem)
        elif expr.startswith("[]"):
            elem = self.type_of(expr[2:])
            t = GoType("[]" + elem.name, "slice", elem)
        elif expr.startswith("map["):
            key, _, rest = expr[4:].partition("]")
            elem = self.type_of(rest)
            t = GoType(f"map[{self.type_of(key).name}]{elem.name}", "map", elem)
        elif expr in self.structs:
            t = self.structs[expr]
        elif expr in _SPECIAL:
            t = GoType(expr, _SPECIAL[expr])
        else:
            kind, bits = _BASIC[_SCALARS.get(expr, expr)]
            t = GoType(expr, kind, bits=bits)
        self.cache[expr] = t
        return t


@cache
def _model() -> _Model:
    structs = _Builder().build()
    return _Model(structs["kserve.LLMInferenceServiceSpec"], structs["meta.ObjectMeta"])


def spec_type() -> GoType:
    """`v1alpha2.LLMInferenceServiceSpec`."""
    return _model().spec


def object_meta_type() -> GoType:
    """`v1.ObjectMeta` (k8s.io/apimachinery meta/v1)."""
    return _model().object_meta


@cache
def config_type() -> GoType:
    """`v1alpha2.LLMInferenceServiceConfig`: TypeMeta inline, metadata and spec (no status)."""
    string = GoType("string", "string")
    return GoType("v1alpha2.LLMInferenceServiceConfig", "struct", fields=(
        GoField("apiVersion", "APIVersion", string, omitempty=True),
        GoField("kind", "Kind", string, omitempty=True),
        GoField("metadata", "ObjectMeta", object_meta_type(), omitempty=True),
        GoField("spec", "Spec", spec_type(), omitempty=True),
    ))


def field_by_json(t: GoType, name: str) -> GoField | None:
    """The field with this JSON name in struct `t` (or `*t`), looking through embedded structs."""
    struct = t.struct
    return None if struct is None else struct.json_fields().get(name)


def field_by_go(t: GoType, name: str) -> GoField | None:
    """The field a Go template reaches with `.Name` on struct `t` (or `*t`).

    Go's promotion rule: the shallowest match wins, embedded structs are searched
    breadth-first. An embedded field is itself addressable by its type name
    (`.Spec.WorkloadSpec`). Because JSON flattens embedded structs, the value of
    an embedded field is the enclosing JSON object, and a promoted field's value
    sits in the enclosing object under its JSON name.
    """
    struct = t.struct
    level = [struct] if struct is not None else []
    while level:
        found = [f for s in level for f in s.fields if f.go == name]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            return None  # ambiguous at one depth: Go reports no such field
        level = [f.type for s in level for f in s.fields if f.inline]
    return None


# -- zero values -------------------------------------------------------------------------

def zero_json(t: GoType) -> Any:
    """The JSON `encoding/json` writes for the zero value of `t` (a fresh object)."""
    kind = t.kind
    if kind == "struct":
        return _encode_struct(t, None, "")
    if kind in ("pointer", "slice", "map", "raw", "time", "any"):
        return None
    return _SCALAR_ZERO[kind]


_SCALAR_ZERO: dict[str, Any] = {
    "string": "", "int": 0, "uint": 0, "float": 0, "bool": False, "quantity": "0", "intorstring": 0, "url": "",
}


def is_empty(t: GoType, value: Any) -> bool:
    """Go's isEmptyValue on an encoded value (the `omitempty` test); structs are never empty."""
    kind = t.kind
    if kind in ("pointer", "slice", "map", "any"):
        return value is None or (kind in ("slice", "map") and len(value) == 0)  # a non-nil interface is not empty
    if kind in ("string", "int", "uint", "float"):
        return value == _SCALAR_ZERO[kind] and not isinstance(value, bool)
    if kind == "bool":
        return value is False
    return False


def _zero_input(t: GoType, value: Any) -> bool:
    """Whether JSON `value` decodes to Go's zero value of `t` (the `omitzero` test)."""
    if value is None:
        return True
    kind = t.kind
    if kind == "struct":
        if not isinstance(value, dict):
            return False
        for key, item in value.items():
            f = t.folded(key)
            if f is not None and not _zero_input(f.type, item):
                return False
        return True
    if kind in ("pointer", "slice", "map", "raw", "any"):
        return False
    return value == _SCALAR_ZERO.get(kind)


# -- projection --------------------------------------------------------------------------

SET_DEFAULTS_PATHS = (
    ("template",),
    ("worker",),
    ("prefill", "template"),
    ("prefill", "worker"),
    ("router", "scheduler", "template"),
)


def project(spec: dict[str, Any] | None, *, overlay: bool = False) -> dict[str, Any]:
    """`spec` as the controller holds it: decoded into `LLMInferenceServiceSpec`, re-encoded.

    Returns a new object that shares nothing with `spec`. Keys follow Go's field order;
    maps are sorted. `overlay=True` also applies `LLMInferenceServiceSpec.SetDefaults`
    (DEF): the five pod specs of `SET_DEFAULTS_PATHS` get `containers: []` when
    present without containers, so that merging them keeps the lower layer's
    containers (`mergeSpecs` in llmisvc/config_merge.go; not `router.scheduler.tokenizer.template`).

    Type mismatches raise LlmcError with Go's decoder message.
    """
    out = encode(spec_type(), spec if spec is not None else {}, "spec")
    if overlay:
        set_defaults(out)
    return out


def set_defaults(spec: dict[str, Any]) -> dict[str, Any]:
    """Apply `LLMInferenceServiceSpec.SetDefaults` in place to a projected spec; returns it."""
    for path in SET_DEFAULTS_PATHS:
        node: Any = spec
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict) and node.get("containers") is None:
            node["containers"] = []
    return spec


class _PathNeeded(Exception):
    """An error to report at a field path that was not tracked (see `encode`)."""


def encode(t: GoType, value: Any, path: str = "") -> Any:
    """Decoded JSON `value` as Go's `json.Marshal` writes it once decoded into type `t`.

    Builds no field paths (path None) unless there is an error to report at `path`.
    """
    try:
        return _encode(t, value, None)
    except _PathNeeded:
        return _encode(t, value, path)


def _encoding_plan(t: GoType) -> tuple[tuple[str, GoField, bool], ...]:
    """The struct's fields in encoding order, each with whether its zero value is written when absent.

    An absent field encodes as its zero value, which `omitzero` always drops and
    `omitempty` drops unless it is a struct; computed once per type.
    """
    if t._plan is None:
        t._plan = tuple(
            (name, f, not f.omitzero and not (f.omitempty and is_empty(f.type, zero_json(f.type))))
            for name, f in t.json_fields().items()
        )
    return t._plan


def _encode_struct(t: GoType, value: Any, path: str | None) -> dict[str, Any]:
    if value is None:
        value = {}
    elif not isinstance(value, dict):
        raise _type_error(value, t, path)
    picked: dict[int, Any] = {}
    for key, item in value.items():
        f = t.folded(key) if isinstance(key, str) else None
        if f is not None:
            picked[id(f)] = item  # a later key for the same field wins, like Go's decoder
    out: dict[str, Any] = {}
    for name, f, written_when_absent in _encoding_plan(t):
        item = picked.get(id(f), _ABSENT)
        if item is _ABSENT:
            if written_when_absent:
                out[name] = zero_json(f.type)
            continue
        if f.omitzero and _zero_input(f.type, item):
            continue
        encoded = _encode(f.type, item, None if path is None else f"{path}.{name}" if path else name)
        if f.omitempty and is_empty(f.type, encoded):
            continue
        out[name] = encoded
    return out


_ABSENT = object()


def _encode(t: GoType, value: Any, path: str | None) -> Any:
    kind = t.kind
    if kind == "struct":
        return _encode_struct(t, value, path)
    if value is None:
        # null leaves non-pointer values at zero (Go's decoder ignores it)
        return zero_json(t)
    if kind == "pointer":
        return _encode(t.elem, value, path)
    if kind == "slice":
        if not isinstance(value, list):
            raise _type_error(value, t, path)
        if path is None:
            return [_encode(t.elem, item, None) for item in value]
        return [_encode(t.elem, item, f"{path}[{i}]") for i, item in enumerate(value)]
    if kind == "map":
        if not isinstance(value, dict):
            raise _type_error(value, t, path)
        if path is None:
            return {str(k): _encode(t.elem, value[k], None) for k in sorted(value, key=str)}
        return {str(k): _encode(t.elem, value[k], f"{path}.{k}") for k in sorted(value, key=str)}
    if kind == "string":
        if not isinstance(value, str):
            raise _type_error(value, t, path)
        return value
    if kind in ("int", "uint"):
        return _integer(t, value, path)
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _type_error(value, t, path)
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise _type_error(value, t, path)
        return value
    if kind == "quantity":
        return _quantity(value, path)
    if kind == "intorstring":
        return _int_or_string(t, value, path)
    if kind == "url":
        if not isinstance(value, str):
            raise _type_error(value, t, path)
        return _url(value)
    if kind in ("raw", "any"):
        return _raw(value)
    return value  # time: RFC 3339 text, kept


def _integer(t: GoType, value: Any, path: str | None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _type_error(value, t, path)
    if isinstance(value, float):
        if not value.is_integer():
            raise _type_error(value, t, path, number=True)
        value = int(value)
    if t.kind == "uint":
        low, high = 0, (1 << t.bits) - 1
    else:
        low, high = -(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1
    if not low <= value <= high:
        raise _type_error(value, t, path, number=True)
    return value


def _quantity(value: Any, path: str | None) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _type_error(value, GoType("resource.Quantity", "quantity"), path)
    try:
        return _canonical_quantity(value.strip() if isinstance(value, str) else value)
    except ValueError as exc:
        if path is None:
            raise _PathNeeded() from None
        raise LlmcError(str(exc), Location(path=path)) from None


@lru_cache(maxsize=4096, typed=True)
def _canonical_quantity(value: str | int | float) -> str:
    """quantity.canonical_quantity, remembered: the same few quantities recur in every service."""
    from llmc.k8s.quantity import canonical_quantity

    return canonical_quantity(value)


def _int_or_string(t: GoType, value: Any, path: str | None) -> int | str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _type_error(value, t, path)
    return _integer(GoType("int32", "int", bits=32), value, path)


def _url(value: str) -> str:
    """apis.URL re-emitted by url.URL.String(): Go lower-cases the scheme; the rest is kept."""
    scheme, sep, rest = value.partition(":")
    if sep and scheme and scheme[0].isalpha() and all(c.isalnum() or c in "+-." for c in scheme):
        return scheme.lower() + sep + rest
    return value


def _raw(value: Any) -> Any:
    """RawExtension content as the API server stores it: maps with sorted keys, integral floats as ints."""
    if isinstance(value, dict):
        return {k: _raw(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_raw(v) for v in value]
    if isinstance(value, float) and value.is_integer() and math.isfinite(value) and abs(value) < 2**63:
        return int(value)
    return value


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _type_error(value: Any, t: GoType, path: str | None, *, number: bool = False) -> LlmcError:
    if path is None:
        raise _PathNeeded()
    what = f"number {value}" if number else _json_kind(value)
    return LlmcError(
        f"json: cannot unmarshal {what} into Go struct field {path} of type {t.name}",
        Location(path=path),
        hint="the controller decodes the spec into KServe's Go types; this value has the wrong JSON type",
    )


# -- output ------------------------------------------------------------------------------

def strip_nulls(value: Any, t: GoType | None = None) -> Any:
    """A copy of `value` without null map entries, for output.

    Non-omitempty pointer/slice fields (`containers`, `grpc.service`, `keda.triggers`)
    are `null` in a projected spec because Go writes them so, and they must stay
    during resolution: a `null` in an overlay deletes the base value. In emitted
    manifests `null` only means "unset", so the emitter may drop them. With `t`,
    RawExtension content (`scheduler.config.inline`) is left exactly as written.
    """
    if t is not None:
        if t.kind == "pointer":
            t = t.elem
        if t is not None and t.kind in ("raw", "any"):
            return copy_json(value)
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if v is None:
                continue
            sub = None
            if t is not None:
                if t.kind == "struct":
                    f = t.json_fields().get(k)
                    sub = f.type if f is not None else None
                elif t.kind == "map":
                    sub = t.elem
            out[k] = strip_nulls(v, sub)
        return out
    if isinstance(value, list):
        elem = t.elem if t is not None and t.kind == "slice" else None
        return [strip_nulls(v, elem) for v in value]
    return value


