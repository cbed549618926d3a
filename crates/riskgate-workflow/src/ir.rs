//! The workflow IR: `{"nodes": [{"id", "node_type" | "type", "config" | "params"}], "edges"?,
//! "metadata"?}`, read from JSON or YAML, and the order in which its nodes are visited (each
//! node once, whatever cycles the edges make).

use std::collections::HashMap;
use std::path::Path;

use serde_json::{Map, Value};

use crate::error::IrError;

/// A document format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON.
    Json,
    /// YAML.
    Yaml,
    /// JSON if it parses, else YAML.
    Auto,
}

impl Format {
    /// `.yaml` / `.yml` → YAML, `.json` → JSON, anything else → [`Format::Auto`].
    pub fn for_path(path: &Path) -> Format {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("yaml" | "yml") => Format::Yaml,
            Some("json") => Format::Json,
            _ => Format::Auto,
        }
    }
}

/// Deserialize `text` in `format`; the error says what is wrong and where.
pub(crate) fn deserialize<T: serde::de::DeserializeOwned>(
    text: &str,
    format: Format,
) -> Result<T, String> {
    match format {
        Format::Json => serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}")),
        Format::Yaml => serde_saphyr::from_str(text).map_err(|e| format!("invalid YAML: {e}")),
        Format::Auto => match serde_json::from_str(text) {
            Ok(v) => Ok(v),
            Err(json) => serde_saphyr::from_str(text)
                .map_err(|yaml| format!("neither JSON ({json}) nor YAML ({yaml})")),
        },
    }
}

/// One node.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The node id.
    pub id: String,
    /// The node type (a registry name or alias).
    pub node_type: String,
    /// The node's parameters (`config` or `params`).
    pub config: Map<String, Value>,
}

impl Node {
    /// The text of parameter `name`: a string as is, a list of strings joined by spaces, a
    /// number or boolean as written, anything else as compact JSON. `None` when absent or null.
    pub fn param_text(&self, name: &str) -> Option<String> {
        match self.config.get(name)? {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Number(n) => Some(n.to_string()),
            Value::Array(items) if items.iter().all(Value::is_string) => Some(
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            other => Some(other.to_string()),
        }
    }
}

/// An edge between two nodes, by id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// The source node id.
    pub from: String,
    /// The target node id.
    pub to: String,
}

/// A workflow IR.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkflowIr {
    /// The nodes, in document order.
    pub nodes: Vec<Node>,
    /// The edges.
    pub edges: Vec<Edge>,
    /// The `metadata` object, if any.
    pub metadata: Option<Map<String, Value>>,
}

impl WorkflowIr {
    /// Read JSON.
    pub fn from_json_str(text: &str) -> Result<WorkflowIr, IrError> {
        WorkflowIr::from_str_as(text, Format::Json)
    }

    /// Read YAML.
    pub fn from_yaml_str(text: &str) -> Result<WorkflowIr, IrError> {
        WorkflowIr::from_str_as(text, Format::Yaml)
    }

    /// Read `text` in `format`.
    pub fn from_str_as(text: &str, format: Format) -> Result<WorkflowIr, IrError> {
        let value: Value = deserialize(text, format).map_err(IrError::Syntax)?;
        WorkflowIr::from_value(&value)
    }

    /// Read the file at `path` (YAML for `.yaml` / `.yml`).
    pub fn from_path(path: &Path) -> Result<WorkflowIr, IrError> {
        let text = std::fs::read_to_string(path).map_err(|e| IrError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        WorkflowIr::from_str_as(&text, Format::for_path(path))
    }

    /// Read an IR from a JSON value.
    pub fn from_value(value: &Value) -> Result<WorkflowIr, IrError> {
        let obj = value.as_object().ok_or_else(|| {
            IrError::Shape("a workflow IR is an object with a `nodes` list".into())
        })?;
        let nodes = match obj.get("nodes") {
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, n)| parse_node(i, n))
                .collect::<Result<Vec<_>, _>>()?,
            Some(Value::Null) | None => {
                return Err(IrError::Shape(
                    "no `nodes` list: a workflow IR is {\"nodes\": [...]}".into(),
                ));
            }
            Some(_) => return Err(IrError::Shape("`nodes` is not a list".into())),
        };
        let edges = match obj.get("edges") {
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, e)| parse_edge(i, e))
                .collect::<Result<Vec<_>, _>>()?,
            Some(Value::Null) | None => Vec::new(),
            Some(_) => return Err(IrError::Shape("`edges` is not a list".into())),
        };
        let metadata = match obj.get("metadata") {
            Some(Value::Object(m)) => Some(m.clone()),
            Some(Value::Null) | None => None,
            Some(_) => return Err(IrError::Shape("`metadata` is not an object".into())),
        };
        Ok(WorkflowIr {
            nodes,
            edges,
            metadata,
        })
    }

    /// Node indices in visiting order: from each node without incoming edges (then from any
    /// node not yet reached, in document order) along the edges, depth first; each node once,
    /// so a cycle ends where it closes. Edges naming unknown nodes are ignored.
    pub fn visit_order(&self) -> Vec<usize> {
        let mut by_id: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, n) in self.nodes.iter().enumerate() {
            by_id.entry(n.id.as_str()).or_default().push(i);
        }
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); self.nodes.len()];
        let mut incoming = vec![false; self.nodes.len()];
        for e in &self.edges {
            let (Some(from), Some(to)) = (by_id.get(e.from.as_str()), by_id.get(e.to.as_str()))
            else {
                continue;
            };
            for &f in from {
                for &t in to {
                    if let Some(list) = next.get_mut(f) {
                        list.push(t);
                    }
                    if let Some(flag) = incoming.get_mut(t) {
                        *flag = true;
                    }
                }
            }
        }
        let mut seen = vec![false; self.nodes.len()];
        let mut order = Vec::with_capacity(self.nodes.len());
        let roots = (0..self.nodes.len())
            .filter(|&i| !incoming.get(i).copied().unwrap_or(false))
            .chain(0..self.nodes.len());
        let mut stack = Vec::new();
        for root in roots {
            stack.push(root);
            while let Some(i) = stack.pop() {
                match seen.get_mut(i) {
                    Some(s) if !*s => *s = true,
                    _ => continue,
                }
                order.push(i);
                if let Some(list) = next.get(i) {
                    stack.extend(list.iter().rev().copied());
                }
            }
        }
        order
    }

    /// Node ids that occur more than once.
    pub fn duplicate_ids(&self) -> Vec<&str> {
        let mut count: HashMap<&str, usize> = HashMap::new();
        for n in &self.nodes {
            *count.entry(n.id.as_str()).or_default() += 1;
        }
        let mut dups: Vec<&str> = count
            .into_iter()
            .filter(|(_, c)| *c > 1)
            .map(|(id, _)| id)
            .collect();
        dups.sort_unstable();
        dups
    }
}

fn parse_node(i: usize, v: &Value) -> Result<Node, IrError> {
    let obj = v
        .as_object()
        .ok_or_else(|| IrError::Shape(format!("nodes[{i}] is not an object")))?;
    let text = |keys: &[&str]| -> Option<String> {
        keys.iter().find_map(|k| match obj.get(*k) {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        })
    };
    let id = text(&["id"]).ok_or_else(|| IrError::Shape(format!("nodes[{i}] has no `id`")))?;
    let node_type = text(&["node_type", "type"]).ok_or_else(|| {
        IrError::Shape(format!("nodes[{i}] (`{id}`) has no `node_type` or `type`"))
    })?;
    let mut config = Map::new();
    for key in ["params", "config"] {
        match obj.get(key) {
            Some(Value::Object(m)) => config.extend(m.iter().map(|(k, v)| (k.clone(), v.clone()))),
            Some(Value::Null) | None => {}
            Some(_) => {
                return Err(IrError::Shape(format!(
                    "nodes[{i}] (`{id}`): `{key}` is not an object"
                )));
            }
        }
    }
    Ok(Node {
        id,
        node_type,
        config,
    })
}

fn parse_edge(i: usize, v: &Value) -> Result<Edge, IrError> {
    let obj = v
        .as_object()
        .ok_or_else(|| IrError::Shape(format!("edges[{i}] is not an object")))?;
    let end = |keys: &[&str]| -> Option<String> {
        keys.iter()
            .find_map(|k| obj.get(*k).and_then(Value::as_str).map(str::to_string))
    };
    match (
        end(&["from", "source", "from_node"]),
        end(&["to", "target", "to_node"]),
    ) {
        (Some(from), Some(to)) => Ok(Edge { from, to }),
        _ => Err(IrError::Shape(format!(
            "edges[{i}] needs `from` and `to` (or `source` and `target`)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_spellings_and_yaml() {
        let ir = WorkflowIr::from_json_str(
            r#"{"nodes": [{"id": "a", "type": "shell", "params": {"command": ["ls", "-la"]}},
                          {"id": "b", "node_type": "llm", "config": {"prompt": "hi"}}],
                "edges": [{"from": "a", "to": "b"}]}"#,
        )
        .unwrap();
        assert_eq!(ir.nodes[0].param_text("command").as_deref(), Some("ls -la"));
        assert_eq!(ir.nodes[1].node_type, "llm");
        let y = WorkflowIr::from_yaml_str(
            "nodes:\n  - id: a\n    type: shell\n    params:\n      command: ls -la\n",
        )
        .unwrap();
        assert_eq!(y.nodes[0].param_text("command").as_deref(), Some("ls -la"));
        assert!(WorkflowIr::from_json_str(r#"{"edges": []}"#).is_err());
        assert!(WorkflowIr::from_json_str(r#"{"nodes": [{"type": "x"}]}"#).is_err());
    }

    #[test]
    fn visit_order_visits_each_node_once_through_cycles() {
        let ir = WorkflowIr::from_json_str(
            r#"{"nodes": [{"id": "a", "type": "t"}, {"id": "b", "type": "t"}, {"id": "c", "type": "t"}],
                "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}, {"from": "c", "to": "a"},
                          {"from": "c", "to": "ghost"}]}"#,
        )
        .unwrap();
        assert_eq!(ir.visit_order(), vec![0, 1, 2]);
    }
}
