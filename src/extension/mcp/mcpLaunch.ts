/** The arguments VS Code starts the bundled MCP server with; free of `vscode` so it is unit-tested. */
export function mcpLaunchArgs(o: { readonly cli: string; readonly storeDir: string; readonly readOnly: boolean }): string[] {
  return [o.cli, '--store', o.storeDir, ...(o.readOnly ? ['--set', 'mcp.readOnly=true'] : []), 'mcp'];
}
