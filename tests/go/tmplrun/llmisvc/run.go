// Package llmisvc executes templates the way KServe's ReplaceVariables does, with the
// controller's function map re-implemented from its documented behaviour.
package llmisvc

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"text/template"

	corev1 "tmplrun/corev1"
	"tmplrun/v1alpha2"
)

type templateGlobalConfig struct {
	SystemNamespace             string
	IngressGatewayName          string
	IngressGatewayNamespace     string
	EnableTLS                   bool
	ModelBasedRoutingHeaderName string
	InferencePoolNamespacedName string
}

var alnum = regexp.MustCompile(`^[a-zA-Z0-9]*$`)

// ChildName follows knative's kmeta.ChildName (63-byte limit, md5 splice, trailing clean-up).
func ChildName(parent, suffix string) string {
	const longest, head = 63, 31
	n := parent
	if len(parent) > longest-len(suffix) {
		if head-len(suffix) <= 0 {
			h := md5.Sum([]byte(parent + suffix))
			if head < len(parent) {
				parent = parent[:head]
			}
			ret := parent + hex.EncodeToString(h[:])
			if d := longest - len(ret); d > 0 {
				ret += suffix[:d]
			}
			for i := len(ret) - 1; !alnum.MatchString(string(ret[i])); i-- {
				ret = ret[:len(ret)-1]
			}
			return ret
		}
		n = fmt.Sprintf("%s%x", parent[:head-len(suffix)], md5.Sum([]byte(parent)))
	}
	return n + suffix
}

func funcs() template.FuncMap {
	return template.FuncMap{
		"ChildName": ChildName,
		"kvTransferConfig": func(spec any) string {
			kv, ok := spec.(*v1alpha2.KVCacheOffloadingSpec)
			if spec == nil || !ok || kv == nil {
				return ""
			}
			extra := map[string]any{"spec_name": "TieringOffloadingSpec", "cpu_bytes_to_use": kv.CPU.Value()}
			if kv.EvictionPolicy != "" {
				extra["eviction_policy"] = kv.EvictionPolicy
			}
			var tiers []map[string]any
			for i, s := range kv.Secondary {
				if s.FileSystem == nil {
					continue
				}
				tiers = append(tiers, map[string]any{"type": "fs", "root_dir": fmt.Sprintf("/mnt/kv-cache-%d", i)})
			}
			if len(tiers) > 0 {
				extra["secondary_tiers"] = tiers
			}
			b, err := json.Marshal(map[string]any{"kv_connector": "OffloadingConnector", "kv_role": "kv_both", "kv_connector_extra_config": extra})
			if err != nil {
				return ""
			}
			return "--kv-transfer-config '" + strings.ReplaceAll(string(b), `"`, `\\\"`) + "'"
		},
		"shutdownTimeout": func(spec any, preStop int64) int64 {
			tgps := int64(60)
			if ps, ok := spec.(*corev1.PodSpec); ok && ps != nil && ps.TerminationGracePeriodSeconds != nil {
				tgps = *ps.TerminationGracePeriodSeconds
			}
			r := tgps - preStop - min(int64(5), tgps)
			if r < 0 {
				return 0
			}
			return r
		},
	}
}

// Case is one request: a template and the data for it.
type Case struct {
	Mode     string          `json:"mode"`
	Template string          `json:"template"`
	Config   json.RawMessage `json:"config"`
	Service  json.RawMessage `json:"service"`
	Global   json.RawMessage `json:"global"`
}

// Result is the answer for one case.
type Result struct {
	Out     *string `json:"out"`
	Err     *string `json:"err"`
	Text    *string `json:"text,omitempty"`
	Decoded any     `json:"decoded,omitempty"`
}

func data(c Case) (any, error) {
	svc := &v1alpha2.LLMInferenceService{}
	if len(c.Service) > 0 && string(c.Service) != "null" {
		if err := json.Unmarshal(c.Service, svc); err != nil {
			return nil, err
		}
	}
	var gc templateGlobalConfig
	if len(c.Global) > 0 && string(c.Global) != "null" {
		if err := json.Unmarshal(c.Global, &gc); err != nil {
			return nil, err
		}
	}
	return struct {
		*v1alpha2.LLMInferenceService
		GlobalConfig templateGlobalConfig
	}{svc, gc}, nil
}

func str(s string) *string { return &s }

// Run executes one case.
func Run(c Case) Result {
	d, err := data(c)
	if err != nil {
		return Result{Err: str("harness: bad data: " + err.Error())}
	}
	if c.Mode == "config" {
		return runConfig(c, d)
	}
	t, err := template.New("config").Funcs(funcs()).Option("missingkey=error").Parse(c.Template)
	if err != nil {
		return Result{Err: str(err.Error())}
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, d); err != nil {
		return Result{Err: str(err.Error())}
	}
	return Result{Out: str(buf.String())}
}

func runConfig(c Case, d any) Result {
	text, err := json.Marshal(c.Config)
	if err != nil {
		return Result{Err: str("harness: " + err.Error())}
	}
	r := Result{Text: str(string(text))}
	t, err := template.New("config").Funcs(funcs()).Option("missingkey=error").Parse(string(text))
	if err != nil {
		r.Err = str(fmt.Errorf("failed to parse template config: %w", err).Error())
		return r
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, d); err != nil {
		r.Err = str(fmt.Errorf("failed to merge config: %w", err).Error())
		return r
	}
	var out any
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		r.Err = str(fmt.Errorf("failed to unmarshal config from template: %w", err).Error())
		return r
	}
	r.Decoded = out
	return r
}
