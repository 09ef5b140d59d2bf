// Minimal ONNX protobuf schema (field numbers from onnx/onnx.proto, IR v8) and builders, so the
// build can write .onnx files from Node with protobufjs and no Python. Encoding is deterministic:
// the same graph object always gives the same bytes.
import protobuf from 'protobufjs';

const { Root, Type, Field, Enum } = protobuf;

/** ONNX TensorProto.DataType values used by our graphs. */
export const DType = Object.freeze({ FLOAT: 1, INT8: 3, INT32: 6, INT64: 7, BOOL: 9 });

function type(name, fields) {
  const t = new Type(name);
  for (const [fname, id, ftype, rule] of fields) t.add(new Field(fname, id, ftype, rule));
  return t;
}

const root = new Root();
root.add(new Enum('AttributeType', { UNDEFINED: 0, FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, GRAPH: 5, FLOATS: 6, INTS: 7, STRINGS: 8 }));
root.add(type('StringStringEntryProto', [['key', 1, 'string'], ['value', 2, 'string']]));
root.add(type('OperatorSetIdProto', [['domain', 1, 'string'], ['version', 2, 'int64']]));
root.add(type('TensorProto', [
  ['dims', 1, 'int64', 'repeated'], ['dataType', 2, 'int32'], ['floatData', 4, 'float', 'repeated'],
  ['int32Data', 5, 'int32', 'repeated'], ['int64Data', 7, 'int64', 'repeated'], ['name', 8, 'string'], ['rawData', 9, 'bytes'],
]));
root.add(type('Dimension', [['dimValue', 1, 'int64'], ['dimParam', 2, 'string']]));
root.add(type('TensorShapeProto', [['dim', 1, 'Dimension', 'repeated']]));
root.add(type('TensorTypeProto', [['elemType', 1, 'int32'], ['shape', 2, 'TensorShapeProto']]));
root.add(type('TypeProto', [['tensorType', 1, 'TensorTypeProto']]));
root.add(type('ValueInfoProto', [['name', 1, 'string'], ['type', 2, 'TypeProto'], ['docString', 3, 'string']]));
root.add(type('AttributeProto', [
  ['name', 1, 'string'], ['f', 2, 'float'], ['i', 3, 'int64'], ['s', 4, 'bytes'], ['t', 5, 'TensorProto'],
  ['floats', 7, 'float', 'repeated'], ['ints', 8, 'int64', 'repeated'], ['type', 20, 'AttributeType'],
]));
root.add(type('NodeProto', [
  ['input', 1, 'string', 'repeated'], ['output', 2, 'string', 'repeated'], ['name', 3, 'string'],
  ['opType', 4, 'string'], ['attribute', 5, 'AttributeProto', 'repeated'], ['domain', 7, 'string'],
]));
root.add(type('GraphProto', [
  ['node', 1, 'NodeProto', 'repeated'], ['name', 2, 'string'], ['initializer', 5, 'TensorProto', 'repeated'],
  ['docString', 10, 'string'], ['input', 11, 'ValueInfoProto', 'repeated'], ['output', 12, 'ValueInfoProto', 'repeated'],
]));
root.add(type('ModelProto', [
  ['irVersion', 1, 'int64'], ['producerName', 2, 'string'], ['producerVersion', 3, 'string'], ['domain', 4, 'string'],
  ['modelVersion', 5, 'int64'], ['docString', 6, 'string'], ['graph', 7, 'GraphProto'],
  ['opsetImport', 8, 'OperatorSetIdProto', 'repeated'], ['metadataProps', 14, 'StringStringEntryProto', 'repeated'],
]));
const ModelProto = root.lookupType('ModelProto');

/** A named initializer from a typed array (stored as raw little-endian bytes). */
export function tensor(name, dims, dataType, data) {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return { name, dims, dataType, rawData: Uint8Array.from(bytes) };
}

/** Attribute helpers: ints/floats/single values. */
export const attr = {
  int: (name, i) => ({ name, i, type: 2 }),
  float: (name, f) => ({ name, f, type: 1 }),
  ints: (name, ints) => ({ name, ints, type: 7 }),
  tensor: (name, t) => ({ name, t, type: 4 }),
};

export function valueInfo(name, elemType, dims) {
  return {
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
  };
}

/**
 * A small graph builder: `op('MatMul', [a, b])` appends a node and returns its output name(s).
 * Names are derived from a counter, so the same build sequence yields the same names.
 */
export class GraphBuilder {
  constructor() { this.nodes = []; this.initializers = []; this.count = 0; }
  op(opType, inputs, attributes = [], outputs = 1) {
    const id = this.count++;
    const outs = Array.from({ length: outputs }, (_, k) => `${opType.toLowerCase()}_${id}${outputs > 1 ? `_${k}` : ''}`);
    this.nodes.push({ input: inputs, output: outs, name: `${opType}_${id}`, opType, attribute: attributes });
    return outputs === 1 ? outs[0] : outs;
  }
  init(name, dims, dataType, data) { this.initializers.push(tensor(name, dims, dataType, data)); return name; }
  f32(name, values, dims = [values.length]) { return this.init(name, dims, DType.FLOAT, Float32Array.from(values)); }
  i64(name, values, dims = [values.length]) { return this.init(name, dims, DType.INT64, BigInt64Array.from(values.map(BigInt))); }
}

/** Encodes a model (opset 17, IR 8) to bytes. */
export function encodeModel({ graph, inputs, outputs, name, doc, producer, metadata = {} }) {
  const message = ModelProto.fromObject({
    irVersion: 8,
    producerName: producer,
    producerVersion: '1',
    modelVersion: 1,
    docString: doc,
    opsetImport: [{ domain: '', version: 17 }],
    metadataProps: Object.entries(metadata).map(([key, value]) => ({ key, value })),
    graph: { name, node: graph.nodes, initializer: graph.initializers, input: inputs, output: outputs },
  });
  return ModelProto.encode(message).finish();
}
