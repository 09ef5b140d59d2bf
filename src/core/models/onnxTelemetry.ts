/**
 * Keeps ONNX Runtime's own telemetry off. onnxruntime-node 1.30's Linux and macOS builds carry
 * Microsoft's 1DS uploader: unless it is told not to, the runtime writes a device id and queues
 * usage events under ~/.cache/Microsoft/DeveloperTools/.onnxruntime and sends them to Microsoft's
 * collector, which breaks "nothing leaves the machine unless you opt in" (src/core/models/README.md,
 * "Privacy"). Its opt-out is an environment variable, read with getenv when the runtime's
 * environment is first created, in whichever thread that happens. A worker thread's `process.env`
 * is a private copy that never reaches getenv, so the main thread sets it before it starts the
 * model worker (modelWorkerClient.ts), and every loader sets it again before importing the runtime
 * (which covers a runtime loaded on the main thread). 1.30 reads ORT_DISABLE_TELEMETRY; newer
 * sources name it ORT_TELEMETRY_DISABLED, so both are set.
 */
export const ONNX_TELEMETRY_OPT_OUT: Readonly<Record<string, string>> = { ORT_DISABLE_TELEMETRY: '1', ORT_TELEMETRY_DISABLED: '1' };

/** Sets the runtime's telemetry opt-out in `env` (the process environment by default). */
export function optOutOfOnnxTelemetry(env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, value] of Object.entries(ONNX_TELEMETRY_OPT_OUT)) env[name] = value;
}
