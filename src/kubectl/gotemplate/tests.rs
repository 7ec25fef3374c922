//! Templates against what Go's text/template prints for them.

use super::GoTemplate;
use serde_json::json;

#[test]
fn templates_print_as_go_prints_them() {
    let obj = json!({"items": [
        {"metadata": {"name": "a", "labels": {"t": "x"}}, "data": {"k": "dg=="}, "n": 2},
        {"metadata": {"name": "b"}, "n": 1.5}
    ], "kind": "List"});
    for (t, want) in [
        (
            "{{range .items}}{{.metadata.name}}{{\"\\n\"}}{{end}}",
            "a\nb\n",
        ),
        ("{{.kind}} {{.nope}}", "List <no value>"),
        ("{{len .items}}", "2"),
        (
            "{{range $i, $x := .items}}{{$i}}={{$x.n}} {{end}}",
            "0=2 1=1.5 ",
        ),
        (
            "{{range .items}}{{if .metadata.labels}}{{.metadata.labels.t}}{{else}}-{{end}}{{end}}",
            "x-",
        ),
        ("{{index .items 0 \"metadata\" \"name\"}}", "a"),
        ("{{(index .items 0).metadata.name}}", "a"),
        ("{{printf \"%s/%d\" .kind 3}}", "List/3"),
        ("{{with .nope}}yes{{else}}no{{end}}", "no"),
        ("{{- range .items -}} {{ .metadata.name }} {{- end}}", "ab"),
        ("{{base64decode (index .items 0).data.k}}", "v"),
        ("{{if eq .kind \"List\"}}list{{end}}", "list"),
        ("{{/* a comment */}}x", "x"),
        (
            "{{range .items}}{{.metadata}}{{end}}",
            "map[labels:map[t:x] name:a]map[name:b]",
        ),
    ] {
        let got = GoTemplate::parse(t).and_then(|g| g.execute(&obj));
        assert_eq!(got.as_deref(), Ok(want), "{t}");
    }
    assert!(GoTemplate::parse("{{range .items}}").is_err());
    assert!(GoTemplate::parse("{{.a | printf \"%s\"}}").is_err());
}
