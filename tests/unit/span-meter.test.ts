/**
 * The load test's measure of how close a run came to a 429 (scripts/loadtest/chaos-proxy.ts): the
 * shortest time in which six requests arrived, and how many such spans fell under the pacer's.
 */
import { describe, expect, it } from 'vitest';
import { createSpanMeter } from '#scripts/loadtest/chaos-proxy.ts';

describe('createSpanMeter', () => {
  it('says nothing until six requests came', () => {
    const meter = createSpanMeter(6);
    for (const at of [0, 210, 420, 630, 840]) meter.note(at);
    expect(meter.report()).toEqual({ tightestSpanMs: null, tightestAtMs: null, spansUnderPacerSpan: 0 });
  });

  it('keeps the shortest span of six in a row, and counts the spans under 1,050 ms', () => {
    const meter = createSpanMeter(6);
    // Six 210 ms apart (1,050), then one 100 ms late and one making it up: 1,150, then 1,050.
    for (const at of [0, 210, 420, 630, 840, 1_050, 1_360, 1_470]) meter.note(at);
    expect(meter.report()).toEqual({ tightestSpanMs: 1_050, tightestAtMs: 0, spansUnderPacerSpan: 0 });
    // Two close together: six within 960 ms, as a 429 would follow, then within 760.
    meter.note(1_590);
    expect(meter.report()).toEqual({ tightestSpanMs: 960, tightestAtMs: 630, spansUnderPacerSpan: 1 });
    meter.note(1_600);
    expect(meter.report()).toEqual({ tightestSpanMs: 760, tightestAtMs: 840, spansUnderPacerSpan: 2 });
  });
});
