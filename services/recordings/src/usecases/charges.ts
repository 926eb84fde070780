import { BUS } from '@mm/contract';
import type { RecordingRow } from '../db/schema';
import type { UseCaseContext } from './context';

const WALLET_TIMEOUT_MS = 10_000;

/** A hold taken again for a meeting (a retry, a restore, a check again). */
export interface FreshHold {
  accountId: string;
  minutes: number;
  reference: string;
}

/**
 * A meeting's money: holds taken again, captures and releases. Every call here goes to the wallet
 * and so happens outside any transaction; each is idempotent by its reference.
 */
export class Charges {
  constructor(private readonly ctx: UseCaseContext) {}

  /**
   * Holds a meeting again, without admission (a retry or a restore is not a new meeting), unless
   * `hold` is null, then runs `attach`, which calls `used()` once the meeting names the new hold. A
   * hold not used is let go at once (one whose attaching commit failed is left to the reconciler).
   */
  async withFreshHold<T>(hold: FreshHold | null, attach: (used: () => void) => Promise<T>): Promise<T> {
    if (!hold) return attach(() => undefined);
    const { accountId, reference } = hold;
    await this.ctx.call(
      BUS.walletHold,
      {
        accountId,
        reference,
        minutes: hold.minutes,
        tokenId: null,
        dailyMinuteCap: null,
        showBalance: false,
        force: true,
      },
      { timeoutMs: WALLET_TIMEOUT_MS },
    );
    let taken = false;
    try {
      return await attach(() => {
        taken = true;
      });
    } finally {
      if (!taken) await this.release(accountId, reference).catch(() => undefined);
    }
  }

  /** Lets a hold go (idempotent). */
  async release(accountId: string, reference: string, timeoutMs = WALLET_TIMEOUT_MS): Promise<void> {
    await this.ctx.call(BUS.walletRelease, { accountId, reference }, { timeoutMs });
  }

  /**
   * Captures a meeting's hold (idempotent by reference); true once done, false when the wallet
   * refused because the hold was let go (a capture it refused never marks the meeting charged).
   */
  async capture(r: Pick<RecordingRow, 'accountId' | 'holdRef' | 'minutes' | 'attachmentMinutes'>): Promise<boolean> {
    const out = await this.ctx.call(
      BUS.walletCapture,
      { accountId: r.accountId, reference: r.holdRef, minutes: r.minutes - r.attachmentMinutes },
      { timeoutMs: WALLET_TIMEOUT_MS },
    );
    return out.captured === true;
  }

  /**
   * Charges a meeting that is past its transcript but not charged, and not deleted: one deleted
   * while it was transcribed and restored since (restore holds it again), or one whose capture
   * was refused. Idempotent.
   */
  async settle(recordingId: string): Promise<void> {
    const { db, repos } = this.ctx;
    const r = await repos.recordings.get(db, recordingId);
    if (!r || r.deletedAt || r.charged) return;
    const pastTranscript =
      ['NAMING', 'GENERATING', 'READY'].includes(r.status) || (r.status === 'FAILED' && r.failedStep === 'generate');
    if (!pastTranscript) return;
    const holdRef = (await this.capture(r)) ? r.holdRef : await this.holdAgainAndCapture(r);
    await repos.recordings.markCharged(db, r.id, holdRef);
  }

  /**
   * A meeting past its transcript whose hold was let go (a final failure released it, then the
   * meeting was checked again): it is held again, forced (not a new meeting), under a reference
   * derived from the hold it replaces, so a redelivery or a concurrent settle finds the same hold;
   * then that hold is captured. Answers the new reference.
   */
  private async holdAgainAndCapture(r: RecordingRow): Promise<string> {
    const reference = `${r.holdRef}:again`;
    await this.withFreshHold({ accountId: r.accountId, minutes: r.minutes, reference }, async (used) => {
      if (await this.ctx.repos.recordings.moveHold(this.ctx.db, r.id, r.holdRef, reference)) used();
    });
    if (!(await this.capture({ ...r, holdRef: reference })))
      throw new Error(`the wallet refused to capture ${reference}`);
    return reference;
  }
}
