// Package runtime mirrors apimachinery's RawExtension.
package runtime

// Object stands for runtime.Object.
type Object interface {
	GetObjectKind() any
}

type RawExtension struct {
	Raw    []byte
	Object Object
}

func (re *RawExtension) UnmarshalJSON(b []byte) error {
	if string(b) != "null" {
		re.Raw = append(re.Raw[0:0], b...)
	}
	return nil
}
