// A one-line progress display for long operator commands: redrawn in place on a
// terminal, silent when stderr is not a TTY or the output is --json (a script reads stdout).

export interface Progress {
  show(text: string): void;
  /** Clears the line, so that the command's result starts on a clean one. */
  end(): void;
}

const SILENT: Progress = { show() {}, end() {} };

export function progressLine(enabled: boolean, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!enabled) return SILENT;
  let drawn = false;
  return {
    show(text) {
      stream.write(`\r\x1b[2K${text}`);
      drawn = true;
    },
    end() {
      if (drawn) stream.write("\r\x1b[2K");
      drawn = false;
    },
  };
}

export const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
