module callbench

go 1.26.0

require (
	github.com/yalue/onnxruntime_go v1.27.0
	golang.org/x/sys v0.49.0
)
