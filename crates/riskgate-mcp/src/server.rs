//! The MCP server over stdio, with the official Rust SDK (`rmcp`): `initialize`, `tools/list`
//! and `tools/call` of the [tools](crate::tools). A bad argument is a JSON-RPC "invalid params"
//! error (-32602) whose message and `data.field` name the argument; a policy that cannot be
//! loaded is a tool result with `isError` saying so. Each call is answered synchronously on a
//! single-threaded runtime (the assessment is bounded CPU work).

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt as _};
use serde_json::{Value, json};

use crate::tools::{self, CallError, PolicyLoader};

/// The riskgate MCP server.
#[derive(Clone)]
pub struct RiskgateServer {
    loader: PolicyLoader,
}

impl RiskgateServer {
    /// A server that loads the policy with `loader` for each call.
    pub fn new(loader: PolicyLoader) -> RiskgateServer {
        RiskgateServer { loader }
    }

    fn tool_list() -> Vec<Tool> {
        tools::definitions()
            .into_iter()
            .map(|d| {
                let schema = match d.input_schema {
                    Value::Object(m) => m,
                    _ => serde_json::Map::new(),
                };
                Tool::new(d.name, d.description, Arc::new(schema))
            })
            .collect()
    }

    fn answer(&self, request: &CallToolRequestParams) -> Result<CallToolResult, ErrorData> {
        match tools::call(&request.name, request.arguments.as_ref(), &self.loader) {
            Ok(value) => {
                let text = serde_json::to_string_pretty(&value).unwrap_or_default();
                let mut result = CallToolResult::structured(value);
                result.content = vec![ContentBlock::text(text)];
                Ok(result)
            }
            Err(CallError::Arg(e)) => Err(ErrorData::invalid_params(
                Cow::Owned(e.to_string()),
                Some(json!({"field": e.field, "message": e.message})),
            )),
            Err(e @ CallError::Policy(_)) => {
                let text = e.to_string();
                let mut result = CallToolResult::structured_error(json!({"error": text}));
                result.content = vec![ContentBlock::text(text)];
                Ok(result)
            }
        }
    }
}

impl ServerHandler for RiskgateServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = rmcp::model::Implementation::new("riskgate", env!("CARGO_PKG_VERSION"));
        info.title = Some("riskgate pre-execution risk gate".to_string());
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(info)
            .with_instructions(
                "Before running a shell command, code, SQL, a change set or a workflow, call the \
                 matching assess_* tool. decision `allow`: go ahead; `ask`: show the user the \
                 reason and run only if they confirm; `deny`: do not run it. Nothing is ever run \
                 by these tools.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(Self::tool_list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.answer(&request).map(CallToolResponse::from)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        Self::tool_list().into_iter().find(|t| t.name == name)
    }
}

/// Why the server stopped abnormally.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The runtime could not start.
    #[error("cannot start the MCP server's runtime: {0}")]
    Runtime(std::io::Error),
    /// The session could not be initialized (the client did not speak MCP).
    #[error("MCP initialization failed: {0}")]
    Initialize(String),
    /// The session ended with an error.
    #[error("the MCP session ended abnormally: {0}")]
    Session(String),
}

/// Serve MCP on standard input and output until the client closes the connection.
pub fn serve_stdio(loader: PolicyLoader) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let transport = (tokio::io::stdin(), tokio::io::stdout());
        let service = match RiskgateServer::new(loader).serve(transport).await {
            Ok(s) => s,
            // the client went away before initializing: nothing to serve
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(e) => return Err(ServeError::Initialize(e.to_string())),
        };
        service
            .waiting()
            .await
            .map_err(|e| ServeError::Session(e.to_string()))?;
        Ok(())
    })
}
