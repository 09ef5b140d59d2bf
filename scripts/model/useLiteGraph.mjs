// Rebuilds the USE-lite TF.js graph as a dense ONNX graph (src/core/models/README.md):
// input_ids int64 [batch, seq] with -1 as padding, output `sentence_embedding` float [batch, 512],
// l2-normalised. Masks are applied to the input, the FFN outputs and the pooling, and padding keys
// get a -1e9 attention bias, so padding never reaches a valid position.
import { DType, GraphBuilder, attr, valueInfo } from './onnxProto.mjs';
import { pick } from './useLiteWeights.mjs';

const L = (layer) => `Encode/Layer_${layer}/TransformerLayer`;
const S = (layer) => `Encode/TransformerStack/Layer_${layer}/TransformerLayer`;

/** Copies a weight into a graph initializer, optionally reshaping a 1x1 conv kernel to a matrix. */
function weight(g, weights, name, onnxName, dims) {
  const w = pick(weights, name);
  return g.init(onnxName, dims ?? w.shape, DType.FLOAT, w.data);
}

function scalar(weights, name) {
  return pick(weights, name).data[0];
}

function layerNorm(g, weights, x, prefix, width, eps, tag) {
  const scale = weight(g, weights, `${prefix}/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`, `${tag}.ln.scale`, [width]);
  const bias = weight(g, weights, `${prefix}/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`, `${tag}.ln.bias`, [width]);
  return g.op('LayerNormalization', [x, scale, bias], [attr.int('axis', -1), attr.float('epsilon', eps)]);
}

function attention(g, weights, x, layer, dIn, keyBias) {
  const dk = scalar(weights, `${S(layer)}/MultiheadAttention/Const`);
  const dh = scalar(weights, `${S(layer)}/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3`);
  const heads = dk / dh;
  const qScale = scalar(weights, `${S(layer)}/MultiheadAttention/mul/y`);
  const tag = `layer${layer}.attn`;
  const wqkv = weight(g, weights, `${L(layer)}/MultiheadAttention/qkv_transform_single/kernel/part_0`, `${tag}.qkv.weight`, [dIn, 3 * dk]);
  const bqkv = weight(g, weights, `${L(layer)}/MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`, `${tag}.qkv.bias`, [3 * dk]);
  const qkv = g.op('Add', [g.op('MatMul', [x, wqkv]), bqkv]);
  const split = g.i64(`${tag}.split`, [dk, dk, dk]);
  const [q, k, v] = g.op('Split', [qkv, split], [attr.int('axis', 2)], 3);
  const headShape = g.i64(`${tag}.head_shape`, [0, 0, heads, dh]);
  const toHeads = (t, perm) => g.op('Transpose', [g.op('Reshape', [t, headShape])], [attr.ints('perm', perm)]);
  const qh = g.op('Mul', [toHeads(q, [0, 2, 1, 3]), g.f32(`${tag}.q_scale`, [qScale], [])]);
  const kh = toHeads(k, [0, 2, 3, 1]);
  const vh = toHeads(v, [0, 2, 1, 3]);
  const logits = g.op('Add', [g.op('MatMul', [qh, kh]), keyBias]);
  const probs = g.op('Softmax', [logits], [attr.int('axis', -1)]);
  const ctx = g.op('Transpose', [g.op('MatMul', [probs, vh])], [attr.ints('perm', [0, 2, 1, 3])]);
  const merged = g.op('Reshape', [ctx, g.i64(`${tag}.merge_shape`, [0, 0, dk])]);
  const dOut = pick(weights, `${L(layer)}/MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`).shape[0];
  const wo = weight(g, weights, `${L(layer)}/MultiheadAttention/output_transform_single/kernel/part_0`, `${tag}.out.weight`, [dk, dOut]);
  const bo = weight(g, weights, `${L(layer)}/MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`, `${tag}.out.bias`, [dOut]);
  return g.op('Add', [g.op('MatMul', [merged, wo]), bo]);
}

function ffn(g, weights, x, layer, mask3) {
  const tag = `layer${layer}.ffn`;
  const w1 = weight(g, weights, `${S(layer)}/FFN/conv1/Tensordot/Reshape_1`, `${tag}.conv1.weight`);
  const b1 = weight(g, weights, `${L(layer)}/FFN/conv1/bias/ConcatPartitions/concat`, `${tag}.conv1.bias`);
  const w2 = weight(g, weights, `${S(layer)}/FFN/conv2/Tensordot/Reshape_1`, `${tag}.conv2.weight`);
  const b2 = weight(g, weights, `${L(layer)}/FFN/conv2/bias/ConcatPartitions/concat`, `${tag}.conv2.bias`);
  const h = g.op('Relu', [g.op('Add', [g.op('MatMul', [x, w1]), b1])]);
  const out = g.op('Add', [g.op('MatMul', [h, w2]), b2]);
  return g.op('Mul', [out, mask3]);
}

/** Builds the graph; returns { graph, inputs, outputs }. */
export function buildUseLiteGraph(weights) {
  const g = new GraphBuilder();
  const eps = scalar(weights, `${S(1)}/FFN/layer_prepostprocess/layer_norm/Cast/x`);
  const padBias = scalar(weights, `${S(1)}/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y`);
  const ids = 'input_ids';

  // Masks: valid positions are ids >= 0.
  const zeroI = g.i64('const.zero_i64', [0], []);
  const valid = g.op('Cast', [g.op('GreaterOrEqual', [ids, zeroI])], [attr.int('to', DType.FLOAT)]);
  const mask3 = g.op('Unsqueeze', [valid, g.i64('const.axis2', [2])]);
  const one = g.f32('const.one', [1], []);
  const keyBias = g.op('Unsqueeze', [
    g.op('Mul', [g.op('Sub', [one, valid]), g.f32('const.pad_bias', [padBias], [])]),
    g.i64('const.axes12', [1, 2]),
  ]);

  // Embedding (twice, as the TF graph does) plus the timing signal, zero at padding.
  const table = weight(g, weights, 'Embeddings_en', 'embeddings.weight');
  const emb = g.op('Gather', [table, g.op('Max', [ids, zeroI])], [attr.int('axis', 0)]);
  const seqLen = g.op('Gather', [g.op('Shape', [ids]), g.i64('const.idx1', [1], [])], [attr.int('axis', 0)]);
  const positions = g.op('Cast', [g.op('Range', [zeroI, seqLen, g.i64('const.one_i64', [1], [])])], [attr.int('to', DType.FLOAT)]);
  const invTimescales = weight(g, weights, 'Encode/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1', 'timing.inv_timescales');
  const scaled = g.op('Mul', [g.op('Unsqueeze', [positions, g.i64('const.axis1', [1])]), invTimescales]);
  const timing = g.op('Concat', [g.op('Sin', [scaled]), g.op('Cos', [scaled])], [attr.int('axis', 1)]);
  const x0 = g.op('Mul', [g.op('Add', [g.op('Add', [emb, timing]), emb]), mask3]);

  // Layer 0: attention 256 -> 512 with a dense residual projection, then FFN.
  const a0 = attention(g, weights, layerNorm(g, weights, x0, L(0), 256, eps, 'layer0.attn'), 0, 256, keyBias);
  const wd = weight(g, weights, `${L(0)}/dense/kernel/ConcatPartitions/concat`, 'layer0.residual.weight');
  const bd = weight(g, weights, `${L(0)}/dense/bias/ConcatPartitions/concat`, 'layer0.residual.bias');
  const y0 = g.op('Add', [a0, g.op('Add', [g.op('MatMul', [x0, wd]), bd])]);
  const z0 = g.op('Add', [y0, ffn(g, weights, layerNorm(g, weights, y0, `${L(0)}/FFN`, 512, eps, 'layer0.ffn'), 0, mask3)]);

  // Layer 1: attention 512 -> 512 with identity residual, then FFN.
  const y1 = g.op('Add', [z0, attention(g, weights, layerNorm(g, weights, z0, L(1), 512, eps, 'layer1.attn'), 1, 512, keyBias)]);
  const z1 = g.op('Add', [y1, ffn(g, weights, layerNorm(g, weights, y1, `${L(1)}/FFN`, 512, eps, 'layer1.ffn'), 1, mask3)]);

  // Masked mean pooling, tanh layer, l2 normalisation.
  const axis1 = g.i64('const.reduce_axis1', [1]);
  const summed = g.op('ReduceSum', [g.op('Mul', [z1, mask3]), axis1], [attr.int('keepdims', 0)]);
  const count = g.op('Max', [g.op('ReduceSum', [valid, axis1], [attr.int('keepdims', 1)]), one]);
  const pooled = g.op('Div', [summed, count]);
  const wt = weight(g, weights, 'Encoder_en/hidden_layers/tanh_layer_0/weights', 'pooler.weight');
  const bt = weight(g, weights, 'Encoder_en/hidden_layers/tanh_layer_0/bias', 'pooler.bias');
  const hidden = g.op('Tanh', [g.op('Add', [g.op('MatMul', [pooled, wt]), bt])]);
  const sq = g.op('ReduceSum', [g.op('Mul', [hidden, hidden]), g.i64('const.reduce_axis_last', [-1])], [attr.int('keepdims', 1)]);
  const minNorm = g.f32('const.l2_min', [scalar(weights, 'hidden_layers/l2_normalize/Maximum/y')], []);
  const inv = g.op('Reciprocal', [g.op('Sqrt', [g.op('Max', [sq, minNorm])])]);
  g.op('Mul', [hidden, inv]);
  g.nodes[g.nodes.length - 1].output = ['sentence_embedding'];

  return {
    graph: g,
    inputs: [valueInfo(ids, DType.INT64, ['batch', 'sequence'])],
    outputs: [valueInfo('sentence_embedding', DType.FLOAT, ['batch', 512])],
  };
}
