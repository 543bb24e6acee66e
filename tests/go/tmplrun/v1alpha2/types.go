// Package v1alpha2 mirrors KServe's LLMInferenceService types (field names, pointers, JSON tags).
package v1alpha2

import (
	"tmplrun/apis"
	corev1 "tmplrun/corev1"
	"tmplrun/intstr"
	metav1 "tmplrun/metav1"
	"tmplrun/resource"
	"tmplrun/runtime"
)

type ParallelismSpec struct {
	Tensor      *int32 `json:"tensor,omitempty"`
	Pipeline    *int32 `json:"pipeline,omitempty"`
	Data        *int32 `json:"data,omitempty"`
	DataLocal   *int32 `json:"dataLocal,omitempty"`
	DataRPCPort *int32 `json:"dataRPCPort,omitempty"`
	Expert      bool   `json:"expert,omitempty"`
}

type LoRASpec struct {
	Adapters       []LLMModelSpec `json:"adapters,omitempty"`
	MaxRank        *int32         `json:"maxRank,omitempty"`
	MaxAdapters    *int32         `json:"maxAdapters,omitempty"`
	MaxCPUAdapters *int32         `json:"maxCpuAdapters,omitempty"`
}

type ConfidentialSpec struct {
	Enabled    bool    `json:"enabled"`
	ResourceID *string `json:"resourceId,omitempty"`
}

type LLMModelSpec struct {
	URI          apis.URL          `json:"uri"`
	Name         *string           `json:"name,omitempty"`
	LoRA         *LoRASpec         `json:"lora,omitempty"`
	Confidential *ConfidentialSpec `json:"confidential,omitempty"`
}

type StorageInitializerSpec struct {
	Enabled *bool `json:"enabled,omitempty"`
}

type Fallback struct{ X string }
type AdvancedConfig struct{ X string }
type ScaleTriggers struct{ X string }
type HorizontalPodAutoscalerBehavior struct{ X string }

type KEDAScalingSpec struct {
	PollingInterval       *int32          `json:"pollingInterval,omitempty"`
	CooldownPeriod        *int32          `json:"cooldownPeriod,omitempty"`
	InitialCooldownPeriod *int32          `json:"initialCooldownPeriod,omitempty"`
	IdleReplicaCount      *int32          `json:"idleReplicaCount,omitempty"`
	Fallback              *Fallback       `json:"fallback,omitempty"`
	Advanced              *AdvancedConfig `json:"advanced,omitempty"`
}

type HPAScalingSpec struct {
	Behavior *HorizontalPodAutoscalerBehavior `json:"behavior,omitempty"`
}

type ActuatorSpec struct {
	HPA  *HPAScalingSpec  `json:"hpa,omitempty"`
	KEDA *KEDAScalingSpec `json:"keda,omitempty"`
}

type WVASpec struct {
	VariantCost  string `json:"variantCost,omitempty"`
	ActuatorSpec `json:",inline"`
}

type DirectKEDAScalingSpec struct {
	KEDAScalingSpec `json:",inline"`
	Triggers        []ScaleTriggers `json:"triggers"`
}

type ScalingSpec struct {
	MinReplicas *int32                 `json:"minReplicas,omitempty"`
	MaxReplicas int32                  `json:"maxReplicas"`
	WVA         *WVASpec               `json:"wva,omitempty"`
	KEDA        *DirectKEDAScalingSpec `json:"keda,omitempty"`
}

type RolloutStrategy struct {
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *intstr.IntOrString `json:"maxSurge,omitempty"`
}

type FileSystemTierSpec struct {
	X string `json:"x,omitempty"`
}

type SecondaryTierSpec struct {
	FileSystem *FileSystemTierSpec `json:"fileSystem,omitempty"`
}

type KVCacheOffloadingSpec struct {
	CPU            resource.Quantity   `json:"cpu"`
	EvictionPolicy string              `json:"evictionPolicy,omitempty"`
	Secondary      []SecondaryTierSpec `json:"secondary,omitempty"`
}

type GatewayHTTPRouteSpec struct{ X string }
type GIEInferencePoolSpec struct{ X string }

type HTTPRouteSpec struct {
	Refs []corev1.LocalObjectReference `json:"refs,omitempty"`
	Spec *GatewayHTTPRouteSpec         `json:"spec,omitempty"`
}

type GatewayRoutesSpec struct {
	HTTP   *HTTPRouteSpec `json:"http,omitempty"`
	Group  *string        `json:"group,omitempty"`
	Weight *int32         `json:"weight,omitempty"`
}

type GatewayObjectReference struct {
	Name        string  `json:"name"`
	Namespace   string  `json:"namespace,omitempty"`
	SectionName *string `json:"sectionName,omitempty"`
}

type GatewaySpec struct {
	Refs []GatewayObjectReference `json:"refs,omitempty"`
}

type UntypedObjectReference struct {
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
}

type IngressSpec struct {
	Refs []UntypedObjectReference `json:"refs,omitempty"`
}

type InferencePoolSpec struct {
	Spec *GIEInferencePoolSpec        `json:"spec,omitempty"`
	Ref  *corev1.LocalObjectReference `json:"ref,omitempty"`
}

type SchedulerConfigSpec struct {
	Inline *runtime.RawExtension        `json:"inline,omitempty"`
	Ref    *corev1.ConfigMapKeySelector `json:"ref,omitempty"`
}

type TokenizerSpec struct {
	Template *corev1.PodSpec `json:"template,omitempty"`
}

type SchedulerSpec struct {
	Pool        *InferencePoolSpec   `json:"pool,omitempty"`
	Labels      map[string]string    `json:"labels,omitempty"`
	Annotations map[string]string    `json:"annotations,omitempty"`
	Template    *corev1.PodSpec      `json:"template,omitempty"`
	Config      *SchedulerConfigSpec `json:"config,omitempty"`
	Replicas    *int32               `json:"replicas,omitempty"`
	Tokenizer   *TokenizerSpec       `json:"tokenizer,omitempty"`
}

type RouterSpec struct {
	Route     *GatewayRoutesSpec `json:"route,omitempty"`
	Gateway   *GatewaySpec       `json:"gateway,omitempty"`
	Ingress   *IngressSpec       `json:"ingress,omitempty"`
	Scheduler *SchedulerSpec     `json:"scheduler,omitempty"`
}

type TracingSpec struct {
	ExporterEndpoint *string `json:"exporterEndpoint,omitempty"`
	Sampler          *string `json:"sampler,omitempty"`
	SamplerArg       *string `json:"samplerArg,omitempty"`
	Exporter         *string `json:"exporter,omitempty"`
}

type WorkloadSpec struct {
	Replicas          *int32                 `json:"replicas,omitempty"`
	Scaling           *ScalingSpec           `json:"scaling,omitempty"`
	Parallelism       *ParallelismSpec       `json:"parallelism,omitempty"`
	Labels            map[string]string      `json:"labels,omitempty"`
	Annotations       map[string]string      `json:"annotations,omitempty"`
	Template          *corev1.PodSpec        `json:"template,omitempty"`
	Worker            *corev1.PodSpec        `json:"worker,omitempty"`
	KVCacheOffloading *KVCacheOffloadingSpec `json:"kvCacheOffloading,omitempty"`
	RolloutStrategy   *RolloutStrategy       `json:"rolloutStrategy,omitempty"`
}

type LLMInferenceServiceSpec struct {
	Model              LLMModelSpec                  `json:"model"`
	StorageInitializer *StorageInitializerSpec       `json:"storageInitializer,omitempty"`
	WorkloadSpec       `json:",inline,omitempty"`
	Router             *RouterSpec                   `json:"router,omitempty"`
	Prefill            *WorkloadSpec                 `json:"prefill,omitempty"`
	Tracing            *TracingSpec                  `json:"tracing,omitempty"`
	BaseRefs           []corev1.LocalObjectReference `json:"baseRefs,omitempty"`
}

type AppliedConfigSource string

type AppliedConfigRef struct {
	Name      string              `json:"name"`
	Namespace string              `json:"namespace"`
	Source    AppliedConfigSource `json:"source"`
}

type Condition struct{ X string }
type Addressable struct{ X string }
type RouterStatus struct{ X string }
type WorkloadStatus struct{ X string }

type Status struct {
	ObservedGeneration int64             `json:"observedGeneration,omitempty"`
	Conditions         []Condition       `json:"conditions,omitempty"`
	Annotations        map[string]string `json:"annotations,omitempty"`
}

type LLMInferenceServiceStatus struct {
	Status         `json:",inline"`
	URL            *apis.URL          `json:"url,omitempty"`
	Address        *Addressable       `json:"address,omitempty"`
	Addresses      []Addressable      `json:"addresses,omitempty"`
	Router         *RouterStatus      `json:"router,omitempty"`
	Workloads      *WorkloadStatus    `json:"workloads,omitempty"`
	AppliedConfigs []AppliedConfigRef `json:"appliedConfigs,omitempty"`
}

type LLMInferenceService struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              LLMInferenceServiceSpec   `json:"spec,omitempty"`
	Status            LLMInferenceServiceStatus `json:"status,omitempty"`
}
