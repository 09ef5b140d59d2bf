import { FEATURE_NAMES } from './features';
import { MemoryError } from '../errors';

/**
 * A deterministic online logistic regression. Serialisable as JSON; the same
 * samples in the same order always give the same weights.
 */
export interface PredictorModel {
  readonly version: 1;
  readonly featureNames: readonly string[];
  readonly weights: readonly number[];
  readonly bias: number;
  /** Sessions the model has been trained on. */
  readonly sessionsTrained: number;
  readonly samplesSeen: number;
}

export interface TrainingSample {
  readonly features: readonly number[];
  /** Target in [0, 1] (soft labels allowed: pins are a positive bet). */
  readonly label: number;
}

/**
 * The untrained model ranks like the baseline: all weight on the fused score, so the predictor
 * starts from the baseline and has to earn every difference.
 */
export function initialModel(): PredictorModel {
  return { version: 1, featureNames: [...FEATURE_NAMES], weights: FEATURE_NAMES.map((n) => (n === 'fusedScore' ? 1 : 0)), bias: 0, sessionsTrained: 0, samplesSeen: 0 };
}

function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

export function predict(model: PredictorModel, features: readonly number[]): number {
  let z = model.bias;
  for (let i = 0; i < model.weights.length; i++) z += (model.weights[i] ?? 0) * (features[i] ?? 0);
  return sigmoid(z);
}

/** One pass of SGD over the session's samples in order, with L2 shrinkage; counts one session. */
export function trainOnSession(model: PredictorModel, samples: readonly TrainingSample[], learningRate: number, l2: number): PredictorModel {
  const w = [...model.weights];
  let b = model.bias;
  for (const s of samples) {
    let z = b;
    for (let i = 0; i < w.length; i++) z += (w[i] as number) * (s.features[i] ?? 0);
    const err = sigmoid(z) - s.label;
    for (let i = 0; i < w.length; i++) w[i] = (w[i] as number) - learningRate * (err * (s.features[i] ?? 0) + l2 * (w[i] as number));
    b -= learningRate * err;
  }
  return { ...model, weights: w, bias: b, sessionsTrained: model.sessionsTrained + (samples.length ? 1 : 0), samplesSeen: model.samplesSeen + samples.length };
}

export function serializeModel(model: PredictorModel): string {
  return JSON.stringify(model);
}

/** Parses stored weights; a model of another shape (other features) is rejected with E_INVALID_INPUT. */
export function deserializeModel(text: string): PredictorModel {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new MemoryError('E_INVALID_INPUT', 'Stored predictor weights are not valid JSON.');
  }
  const m = v as Partial<PredictorModel> | null;
  const ok = !!m && m.version === 1 && Array.isArray(m.weights) && Array.isArray(m.featureNames)
    && m.featureNames.join(',') === FEATURE_NAMES.join(',') && m.weights.length === FEATURE_NAMES.length
    && m.weights.every((x) => typeof x === 'number' && Number.isFinite(x)) && typeof m.bias === 'number'
    && typeof m.sessionsTrained === 'number' && typeof m.samplesSeen === 'number';
  if (!ok) throw new MemoryError('E_INVALID_INPUT', 'Stored predictor weights do not match this version\'s features.');
  return m as PredictorModel;
}
