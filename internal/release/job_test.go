package release

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"go.yaml.in/yaml/v3"
)

// readmeJob returns the Kubernetes Job manifest of docs/shared-host.md, as YAML and as
// the JSON value the API would read.
func readmeJob(t *testing.T) (string, any) {
	t.Helper()
	readme, err := os.ReadFile("../../docs/shared-host.md")
	if err != nil {
		t.Fatal(err)
	}
	// The ```yaml block (indented as a list item's) whose kind is Job.
	var block string
	for _, m := range regexp.MustCompile("(?ms)^( *)```yaml\n(.*?)^ *```").FindAllSubmatch(readme, -1) {
		indent := string(m[1])
		body := string(m[2])
		if strings.Contains(body, "kind: Job\n") {
			block = regexp.MustCompile("(?m)^"+indent).ReplaceAllString(body, "")
		}
	}
	if block == "" {
		t.Fatal("docs/shared-host.md has no ```yaml block with kind: Job")
	}
	var v any
	if err := yaml.Unmarshal([]byte(block), &v); err != nil {
		t.Fatalf("the documented Job: %v\n%s", err, block)
	}
	// Through JSON, as the API server sees it (maps with string keys).
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var inst any
	if err := json.Unmarshal(j, &inst); err != nil {
		t.Fatal(err)
	}
	return block, inst
}

func jobSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile("testdata/job.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("job.schema.json", bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("job.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// job is the part of a Job the checks below read.
type job struct {
	Spec struct {
		Completions    int    `json:"completions"`
		CompletionMode string `json:"completionMode"`
		Template       struct {
			Spec struct {
				Containers []struct {
					Image        string   `json:"image"`
					Command      []string `json:"command"`
					Args         []string `json:"args"`
					VolumeMounts []struct {
						Name      string `json:"name"`
						MountPath string `json:"mountPath"`
					} `json:"volumeMounts"`
				} `json:"containers"`
				Volumes []struct {
					Name string `json:"name"`
				} `json:"volumes"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
}

func decodeJob(t *testing.T, inst any) job {
	t.Helper()
	j, _ := json.Marshal(inst)
	var jb job
	if err := json.Unmarshal(j, &jb); err != nil {
		t.Fatal(err)
	}
	return jb
}

// The documented Indexed Job is a valid batch/v1 Job (against a subset of
// the Kubernetes schema, testdata/job.schema.json, whose source it names),
// mounts only volumes it declares, and runs discgen's image with no shell:
// args only, the shard from $(JOB_COMPLETION_INDEX), which Kubernetes
// expands, out of as many as the Job's completions.
func TestDocumentedJob(t *testing.T) {
	block, inst := readmeJob(t)
	s := jobSchema(t)
	if err := s.Validate(inst); err != nil {
		t.Fatalf("the documented Job:\n%s\n%#v", block, err)
	}
	jb := decodeJob(t, inst)
	if jb.Spec.CompletionMode != "Indexed" || jb.Spec.Completions < 1 {
		t.Errorf("completionMode %q, completions %d: want an Indexed Job", jb.Spec.CompletionMode, jb.Spec.Completions)
	}
	declared := map[string]bool{}
	for _, v := range jb.Spec.Template.Spec.Volumes {
		declared[v.Name] = true
	}
	for _, c := range jb.Spec.Template.Spec.Containers {
		if len(c.Command) > 0 {
			t.Errorf("command %q: the image has no shell and discgen as its entrypoint; give args only", c.Command)
		}
		shard := "$(JOB_COMPLETION_INDEX)/" + strconv.Itoa(jb.Spec.Completions)
		if !strings.Contains(strings.Join(c.Args, " "), "--shard-index "+shard) {
			t.Errorf("args %q: want --shard-index %s", c.Args, shard)
		}
		for _, m := range c.VolumeMounts {
			if !declared[m.Name] {
				t.Errorf("volume mount %q at %s: no such volume", m.Name, m.MountPath)
			}
		}
	}

	// The schema can fail: a misplaced field, a wrong restart policy.
	for _, bad := range []string{
		strings.Replace(block, "restartPolicy: Never", "restartPolicy: Always", 1),
		strings.Replace(block, "completionMode: Indexed", "completionMode: Indexed\n  complettions: 8", 1),
		strings.Replace(block, "mountPath: /home", "mountpath: /home", 1),
	} {
		var v any
		if err := yaml.Unmarshal([]byte(bad), &v); err != nil {
			t.Fatal(err)
		}
		j, _ := json.Marshal(v)
		var bi any
		json.Unmarshal(j, &bi)
		if err := s.Validate(bi); err == nil {
			t.Errorf("the schema accepts:\n%s", bad)
		}
	}
}
