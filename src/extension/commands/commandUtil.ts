/**
 * Every Memory command runs through `safe`: failures become one clear error notification
 * (userMessage of a coded MemoryError, never a stack trace) and a log line; the command then
 * resolves to undefined so callers (other commands, tests) never see an unhandled rejection.
 */
import * as vscode from 'vscode';
import { isMemoryError, userMessage } from '../../core/errors';
import type { Services } from '../host/services';

export function safe<A extends unknown[], R>(services: Services, title: string, fn: (...args: A) => Promise<R>): (...args: A) => Promise<R | undefined> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (e) {
      if (isMemoryError(e, 'E_CANCELLED')) {
        services.logger.info(`${title}: cancelled`);
        return undefined;
      }
      services.logger.warn(`${title}: ${userMessage(e)}`);
      void vscode.window.showErrorMessage(`${title} failed: ${userMessage(e)}`, 'Show Logs').then((pick) => {
        if (pick) services.logger.show(true);
      });
      return undefined;
    }
  };
}

/** Registers a command wrapped in `safe`. */
export function registerSafe(context: vscode.ExtensionContext, services: Services, id: string, title: string, fn: (...args: never[]) => Promise<unknown>): void {
  context.subscriptions.push(vscode.commands.registerCommand(id, safe(services, title, fn as (...args: unknown[]) => Promise<unknown>)));
}

/** A non-blocking information message (commands must not wait for the user to dismiss it). */
export function inform(message: string): void {
  void vscode.window.showInformationMessage(message);
}
