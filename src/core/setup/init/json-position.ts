// Where a JSON text goes wrong. V8's JSON.parse names a position for some errors but not for others
// ("Unexpected token '}', ... is not valid JSON"), so the file-naming error of `ctx init` and `ctx doctor`
// finds it itself with a strict scanner of the JSON grammar (RFC 8259). Used only after JSON.parse failed.

class JsonStop {
  readonly at: number;
  constructor(at: number) {
    this.at = at;
  }
}

/** Index of the first character that cannot continue valid JSON (text.length = unexpected end); -1 if valid. */
export function locateJsonError(text: string): number {
  let at = 0;
  const stop = (): never => {
    throw new JsonStop(at);
  };
  const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at] as string)) at += 1;
  };
  const take = (char: string) => {
    if (text[at] !== char) stop();
    at += 1;
  };
  const digits = () => {
    if (!isDigit(text[at])) stop();
    while (isDigit(text[at])) at += 1;
  };
  const number = () => {
    if (text[at] === "-") at += 1;
    if (text[at] === "0") at += 1;
    else digits();
    if (text[at] === ".") {
      at += 1;
      digits();
    }
    if (text[at] === "e" || text[at] === "E") {
      at += 1;
      if (text[at] === "+" || text[at] === "-") at += 1;
      digits();
    }
  };
  const string = () => {
    take('"');
    while (text[at] !== '"') {
      const char = text[at];
      if (char === undefined || char < " ") stop();
      at += 1;
      if (char !== "\\") continue;
      if (text[at] === "u") {
        at += 1;
        for (let i = 0; i < 4; i += 1) {
          if (!/[0-9a-fA-F]/.test(text[at] ?? "")) stop();
          at += 1;
        }
      } else {
        if (!'"\\/bfnrt'.includes(text[at] ?? "x")) stop();
        at += 1;
      }
    }
    at += 1;
  };
  const sequence = (close: string, item: () => void) => {
    at += 1;
    space();
    if (text[at] !== close) {
      for (;;) {
        item();
        space();
        if (text[at] === close) break;
        take(",");
        space();
      }
    }
    at += 1;
  };
  const member = () => {
    string();
    space();
    take(":");
    value();
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === "{") sequence("}", member);
    else if (char === "[") sequence("]", value);
    else if (char === '"') string();
    else if (char === "-" || isDigit(char)) number();
    else {
      const word = ["true", "false", "null"].find((literal) => literal[0] === char);
      if (word === undefined) stop();
      for (const letter of word as string) take(letter);
    }
  };
  try {
    value();
    space();
    return at < text.length ? at : -1;
  } catch (error) {
    if (error instanceof JsonStop) return Math.min(error.at, text.length);
    throw error;
  }
}
