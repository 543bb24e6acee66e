// Package v1 mirrors the parts of k8s.io/api/core/v1 that templates reach.
package v1

import "tmplrun/resource"

type ResourceName string
type Protocol string
type PullPolicy string
type RestartPolicy string
type DNSPolicy string
type ContainerRestartPolicy string
type TerminationMessagePolicy string
type PreemptionPolicy string

// Types llmc does not model in detail.
type Volume struct{ Name string `json:"name"` }
type ContainerPort struct{ ContainerPort int32 `json:"containerPort"` }
type EnvFromSource struct{ Prefix string `json:"prefix,omitempty"` }
type EnvVarSource struct{ X string }
type ResourceClaim struct{ Name string `json:"name"` }
type ContainerResizePolicy struct{ X string }
type VolumeMount struct{ Name string `json:"name"` }
type VolumeDevice struct{ X string }
type Probe struct{ X string }
type Lifecycle struct{ X string }
type SecurityContext struct{ X string }
type PodSecurityContext struct{ X string }
type Affinity struct{ X string }
type Toleration struct{ X string }
type HostAlias struct{ X string }
type PodDNSConfig struct{ X string }
type PodReadinessGate struct{ X string }
type TopologySpreadConstraint struct{ X string }
type PodOS struct{ X string }
type PodSchedulingGate struct{ X string }
type PodResourceClaim struct{ X string }
type EphemeralContainer struct{ X string }
type ConfigMapKeySelector struct {
	Name string `json:"name"`
	Key  string `json:"key"`
}

type LocalObjectReference struct {
	Name string `json:"name,omitempty"`
}

type EnvVar struct {
	Name      string        `json:"name"`
	Value     string        `json:"value,omitempty"`
	ValueFrom *EnvVarSource `json:"valueFrom,omitempty"`
}

type ResourceList map[ResourceName]resource.Quantity

type ResourceRequirements struct {
	Limits   map[ResourceName]resource.Quantity `json:"limits,omitempty"`
	Requests map[ResourceName]resource.Quantity `json:"requests,omitempty"`
	Claims   []ResourceClaim                    `json:"claims,omitempty"`
}

type Container struct {
	Name                     string                   `json:"name"`
	Image                    string                   `json:"image,omitempty"`
	Command                  []string                 `json:"command,omitempty"`
	Args                     []string                 `json:"args,omitempty"`
	WorkingDir               string                   `json:"workingDir,omitempty"`
	Ports                    []ContainerPort          `json:"ports,omitempty"`
	EnvFrom                  []EnvFromSource          `json:"envFrom,omitempty"`
	Env                      []EnvVar                 `json:"env,omitempty"`
	Resources                ResourceRequirements     `json:"resources,omitempty"`
	ResizePolicy             []ContainerResizePolicy  `json:"resizePolicy,omitempty"`
	RestartPolicy            *ContainerRestartPolicy  `json:"restartPolicy,omitempty"`
	VolumeMounts             []VolumeMount            `json:"volumeMounts,omitempty"`
	VolumeDevices            []VolumeDevice           `json:"volumeDevices,omitempty"`
	LivenessProbe            *Probe                   `json:"livenessProbe,omitempty"`
	ReadinessProbe           *Probe                   `json:"readinessProbe,omitempty"`
	StartupProbe             *Probe                   `json:"startupProbe,omitempty"`
	Lifecycle                *Lifecycle               `json:"lifecycle,omitempty"`
	TerminationMessagePath   string                   `json:"terminationMessagePath,omitempty"`
	TerminationMessagePolicy TerminationMessagePolicy `json:"terminationMessagePolicy,omitempty"`
	ImagePullPolicy          PullPolicy               `json:"imagePullPolicy,omitempty"`
	SecurityContext          *SecurityContext         `json:"securityContext,omitempty"`
	Stdin                    bool                     `json:"stdin,omitempty"`
	StdinOnce                bool                     `json:"stdinOnce,omitempty"`
	TTY                      bool                     `json:"tty,omitempty"`
}

type PodSpec struct {
	Volumes                       []Volume                           `json:"volumes,omitempty"`
	InitContainers                []Container                        `json:"initContainers,omitempty"`
	Containers                    []Container                        `json:"containers"`
	EphemeralContainers           []EphemeralContainer               `json:"ephemeralContainers,omitempty"`
	RestartPolicy                 RestartPolicy                      `json:"restartPolicy,omitempty"`
	TerminationGracePeriodSeconds *int64                             `json:"terminationGracePeriodSeconds,omitempty"`
	ActiveDeadlineSeconds         *int64                             `json:"activeDeadlineSeconds,omitempty"`
	DNSPolicy                     DNSPolicy                          `json:"dnsPolicy,omitempty"`
	NodeSelector                  map[string]string                  `json:"nodeSelector,omitempty"`
	ServiceAccountName            string                             `json:"serviceAccountName,omitempty"`
	DeprecatedServiceAccount      string                             `json:"serviceAccount,omitempty"`
	AutomountServiceAccountToken  *bool                              `json:"automountServiceAccountToken,omitempty"`
	NodeName                      string                             `json:"nodeName,omitempty"`
	HostNetwork                   bool                               `json:"hostNetwork,omitempty"`
	HostPID                       bool                               `json:"hostPID,omitempty"`
	HostIPC                       bool                               `json:"hostIPC,omitempty"`
	ShareProcessNamespace         *bool                              `json:"shareProcessNamespace,omitempty"`
	SecurityContext               *PodSecurityContext                `json:"securityContext,omitempty"`
	ImagePullSecrets              []LocalObjectReference             `json:"imagePullSecrets,omitempty"`
	Hostname                      string                             `json:"hostname,omitempty"`
	Subdomain                     string                             `json:"subdomain,omitempty"`
	Affinity                      *Affinity                          `json:"affinity,omitempty"`
	SchedulerName                 string                             `json:"schedulerName,omitempty"`
	Tolerations                   []Toleration                       `json:"tolerations,omitempty"`
	HostAliases                   []HostAlias                        `json:"hostAliases,omitempty"`
	PriorityClassName             string                             `json:"priorityClassName,omitempty"`
	Priority                      *int32                             `json:"priority,omitempty"`
	DNSConfig                     *PodDNSConfig                      `json:"dnsConfig,omitempty"`
	ReadinessGates                []PodReadinessGate                 `json:"readinessGates,omitempty"`
	RuntimeClassName              *string                            `json:"runtimeClassName,omitempty"`
	EnableServiceLinks            *bool                              `json:"enableServiceLinks,omitempty"`
	PreemptionPolicy              *PreemptionPolicy                  `json:"preemptionPolicy,omitempty"`
	Overhead                      map[ResourceName]resource.Quantity `json:"overhead,omitempty"`
	TopologySpreadConstraints     []TopologySpreadConstraint         `json:"topologySpreadConstraints,omitempty"`
	SetHostnameAsFQDN             *bool                              `json:"setHostnameAsFQDN,omitempty"`
	OS                            *PodOS                             `json:"os,omitempty"`
	HostUsers                     *bool                              `json:"hostUsers,omitempty"`
	SchedulingGates               []PodSchedulingGate                `json:"schedulingGates,omitempty"`
	ResourceClaims                []PodResourceClaim                 `json:"resourceClaims,omitempty"`
	Resources                     *ResourceRequirements              `json:"resources,omitempty"`
	HostnameOverride              *string                            `json:"hostnameOverride,omitempty"`
}
