// Package types mirrors k8s.io/apimachinery/pkg/types as far as templates see it.
package types

// UID is a named string, as in Kubernetes.
type UID string
