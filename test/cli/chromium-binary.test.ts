import { describe, expect, it } from 'vitest';
import {
  CHROMIUM_PATH,
  ensureChromium,
  findChromium,
} from '../../src/cli/supervision/chromium-binary.js';

describe("the browser tests' Chromium", () => {
  it("is Debian's chromium at its fixed path, which setup made sure of", () => {
    expect(findChromium()).toBe(CHROMIUM_PATH);
    expect(ensureChromium({})).toBe(
      `chromium: ${CHROMIUM_PATH} (Debian's chromium; for the browser tests)`,
    );
  });
});
