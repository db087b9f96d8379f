// One tab's queue of messages written while its agent could not take them, in arrival order,
// each with who wrote it (several clients may share one tab). Plain data: when the queue is
// sent, and what a change tells the clients, is the tab session's. Edits and deletions name
// the text they expect, so a client acting on a queue that moved meanwhile changes nothing.

import type { UserAuthor } from '../transcript/types.js';

/** A message waiting for the agent, with who wrote it (several clients may share one tab's queue). */
export interface QueuedMessage {
  text: string;
  /** Undefined: the conversation's own user (the one who opened it). */
  author?: UserAuthor;
}

export class MessageQueue {
  private readonly items: QueuedMessage[] = [];

  get length(): number {
    return this.items.length;
  }

  /** The texts, oldest first. */
  texts(): readonly string[] {
    return this.items.map((q) => q.text);
  }

  /** Who wrote each, in the queue's order. */
  authors(): readonly (UserAuthor | undefined)[] {
    return this.items.map((q) => q.author);
  }

  /** A new message, last; its position (1-based). */
  push(text: string, author?: UserAuthor): number {
    return this.items.push({ text, ...(author ? { author } : {}) });
  }

  /** A message that was on its way goes back to the head (it goes out first). */
  unshift(text: string, author?: UserAuthor): void {
    this.items.unshift({ text, ...(author ? { author } : {}) });
  }

  /** The oldest message, taken off to be sent. */
  shift(): QueuedMessage | undefined {
    return this.items.shift();
  }

  /** Replaces the text at `index`; false when there is none. */
  edit(index: number, text: string): boolean {
    const q = this.items[index];
    if (!q) return false;
    q.text = text;
    return true;
  }

  /** Deletes the message at `index`; with `expected`, only while that is still its text. Gives back what it deleted. */
  delete(index: number, expected?: string): string | undefined {
    if (expected !== undefined && this.items[index]?.text !== expected) return undefined;
    return this.items.splice(index, 1)[0]?.text;
  }
}
