// Ember corpus: convolution and pooling with linalg named ops (NHWC layout).
//   conv2d(img: 1x8x8x3xf32, filt: 3x3x3x4xf32) -> 1x6x6x4xf32   stride 1, no pad
//   conv2d_bias_relu(img: 1x8x8x3, filt: 3x3x3x4, bias: 4 f32) -> 1x3x3x4
//       stride 2, then + bias and max(x, 0)
//   depthwise(img: 1x6x6x2xf32, filt: 3x3x2xf32) -> 1x4x4x2xf32
//   maxpool(img: 1x4x4x2xf32) -> 1x2x2x2xf32     2x2 window, stride 2
func.func @conv2d(%img: tensor<1x8x8x3xf32>, %filt: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x6x6x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %filt : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>)
      outs(%acc : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}

func.func @conv2d_bias_relu(%img: tensor<1x8x8x3xf32>, %filt: tensor<3x3x3x4xf32>, %bias: tensor<4xf32>) -> tensor<1x3x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x3x3x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %conv = linalg.conv_2d_nhwc_hwcf
      {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%img, %filt : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>)
      outs(%acc : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>,
                       affine_map<(n, h, w, c) -> (c)>,
                       affine_map<(n, h, w, c) -> (n, h, w, c)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bias : tensor<1x3x3x4xf32>, tensor<4xf32>)
      outs(%empty : tensor<1x3x3x4xf32>) {
  ^bb0(%x: f32, %b: f32, %out: f32):
    %s = arith.addf %x, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x3x3x4xf32>
  return %r : tensor<1x3x3x4xf32>
}

func.func @depthwise(%img: tensor<1x6x6x2xf32>, %filt: tensor<3x3x2xf32>) -> tensor<1x4x4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x4x4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %filt : tensor<1x6x6x2xf32>, tensor<3x3x2xf32>)
      outs(%acc : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %r : tensor<1x4x4x2xf32>
}

func.func @maxpool(%img: tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<2x2xf32>
  %empty = tensor.empty() : tensor<1x2x2x2xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%empty : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = linalg.pooling_nhwc_max
      {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%img, %window : tensor<1x4x4x2xf32>, tensor<2x2xf32>)
      outs(%acc : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
