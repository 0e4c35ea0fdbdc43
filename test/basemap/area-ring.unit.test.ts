// The checks of a polygon the rep draws to download: at least 3 distinct corners, some surface,
// an outline that does not cross itself (src-shared/area-ring.ts, used by main and the panel).
import { describe, expect, it } from 'vitest';
import { ringProblem, segmentsIntersect } from '../../src-shared/area-ring';

type Ring = Array<[number, number]>;
const square: Ring = [
  [-97.42, 37.68],
  [-97.38, 37.68],
  [-97.38, 37.72],
  [-97.42, 37.72],
];

describe('a drawn area', () => {
  it('accepts a triangle, a square (open or closed) and a concave shape', () => {
    expect(ringProblem(square.slice(0, 3))).toBeNull();
    expect(ringProblem(square)).toBeNull();
    expect(ringProblem([...square, square[0]!])).toBeNull();
    // An L: concave, with a corner repeated as a double click leaves it.
    const l: Ring = [
      [0, 0],
      [2, 0],
      [2, 1],
      [2, 1],
      [1, 1],
      [1, 2],
      [0, 2],
      [0, 0],
    ];
    expect(ringProblem(l)).toBeNull();
  });

  it('needs 3 different corners', () => {
    expect(ringProblem([square[0]!, square[1]!, square[0]!, square[1]!])).toMatch(
      /at least 3 different corners \(this one has 2\)/,
    );
    expect(ringProblem([square[0]!, square[0]!, square[0]!])).toMatch(/this one has 1/);
  });

  it('needs a surface: corners on one line are refused', () => {
    expect(
      ringProblem([
        [0, 0],
        [1, 1],
        [2, 2],
        [0, 0],
      ]),
    ).toMatch(/no surface/);
    // A sliver far thinner than a metre is no surface either.
    expect(
      ringProblem([
        [0, 0],
        [0.001, 0],
        [0.0005, 1e-9],
      ]),
    ).toMatch(/no surface/);
  });

  it('refuses an outline that crosses or touches itself', () => {
    const bowtie: Ring = [square[0]!, square[2]!, square[1]!, square[3]!];
    expect(ringProblem(bowtie)).toMatch(/crosses itself/);
    // A figure eight that only touches at one corner.
    const eight: Ring = [
      [0, 0],
      [1, 1],
      [2, 0],
      [2, 2],
      [1, 1],
      [0, 2],
    ];
    expect(ringProblem(eight)).toMatch(/crosses itself/);
    // An edge that folds back over the one before it.
    const fold: Ring = [
      [0, 0],
      [2, 0],
      [1, 0],
      [1, 1],
    ];
    expect(ringProblem(fold)).toMatch(/crosses itself/);
  });

  it('finds segments that cross, touch or overlap, and not those apart', () => {
    expect(segmentsIntersect([0, 0], [2, 2], [0, 2], [2, 0])).toBe(true);
    expect(segmentsIntersect([0, 0], [2, 0], [1, 0], [1, 1])).toBe(true);
    expect(segmentsIntersect([0, 0], [2, 0], [1, 0], [3, 0])).toBe(true);
    expect(segmentsIntersect([0, 0], [1, 0], [2, 0], [3, 0])).toBe(false);
    expect(segmentsIntersect([0, 0], [1, 1], [0, 1], [0.4, 0.6])).toBe(false);
  });
});
