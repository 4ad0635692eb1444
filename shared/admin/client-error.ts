// The admin client's error type, on its own so that code which only recognises it (the CLI's error reporter) does not
// load the endpoint table and its schemas. Must stay free of imports.

/** An admin API failure: the server's `{error:{code,message,field}}`, or a network / protocol problem
 *  (`network_error`, `bad_response`) with status 0 or the HTTP status. */
export class AdminApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly field: string | undefined;
  constructor(code: string, message: string, status: number, field?: string) {
    super(message);
    this.name = "AdminApiError";
    this.code = code;
    this.status = status;
    this.field = field;
  }
}
