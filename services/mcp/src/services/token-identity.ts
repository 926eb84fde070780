import type { WhoAmI } from '@mm/sdk';

/**
 * Who the token is (its scopes decide the tools), from whoami. Learned once; while unknown (the
 * service was down or refused the token) each use asks again, so a blip at start does not last.
 */
export class TokenIdentity {
  private who: WhoAmI | undefined;
  private asking: Promise<WhoAmI> | undefined;

  constructor(
    private readonly whoami: () => Promise<WhoAmI>,
    known?: WhoAmI,
  ) {
    this.who = known;
  }

  /** Whoami's answer when already learned. */
  get known(): WhoAmI | undefined {
    return this.who;
  }

  /** Whoami's answer, asked now when not yet learned (one question at a time); throws what stopped it. */
  async learn(): Promise<WhoAmI> {
    if (this.who) return this.who;
    this.asking ??= this.whoami().finally(() => (this.asking = undefined));
    this.who = await this.asking;
    return this.who;
  }
}
