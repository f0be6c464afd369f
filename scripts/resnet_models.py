"""Real-model-sized examples of a user's own model, made here with torch alone: a ResNet-50
(bottleneck blocks 3-4-6-3, 224x224 RGB, about 4.1 GFLOP a call) as ONNX, and a ResNet-18
(about 1.8 GFLOP) as a torch.export program, and a DenseNet-121 as ONNX opset 9. Seeded
weights, batch norm in eval mode as a trained model's; no torchvision, nothing downloaded.

    .nox/tests/bin/python scripts/resnet_models.py --onnx resnet50.onnx --pt2 resnet18.pt2
    ./nox -s bench -- --onnx resnet50.onnx
    ./nox -s bench -- --torch resnet18.pt2
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from torch import nn


def conv_bn(cin: int, cout: int, k: int, stride: int = 1) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout)]


class Bottleneck(nn.Module):
    """1x1 down, 3x3 (the stride), 1x1 up (x4), plus the shortcut."""

    def __init__(self, cin: int, width: int, stride: int) -> None:
        super().__init__()
        cout = width * 4
        self.body = nn.Sequential(*conv_bn(cin, width, 1), nn.ReLU(),
                                  *conv_bn(width, width, 3, stride), nn.ReLU(),
                                  *conv_bn(width, cout, 1))  # fmt: skip
        self.short = (nn.Sequential(*conv_bn(cin, cout, 1, stride))
                      if stride != 1 or cin != cout else nn.Identity())  # fmt: skip

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.body(x) + self.short(x))


class Basic(nn.Module):
    """Two 3x3 convolutions, plus the shortcut (ResNet-18's block)."""

    def __init__(self, cin: int, width: int, stride: int) -> None:
        super().__init__()
        self.body = nn.Sequential(*conv_bn(cin, width, 3, stride), nn.ReLU(),
                                  *conv_bn(width, width, 3))  # fmt: skip
        self.short = (nn.Sequential(*conv_bn(cin, width, 1, stride))
                      if stride != 1 or cin != width else nn.Identity())  # fmt: skip

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.body(x) + self.short(x))


class ResNet(nn.Module):
    """image [N, 3, 224, 224] -> logits [N, 1000]."""

    def __init__(self, block: type[nn.Module], depths: list[int], expansion: int) -> None:
        super().__init__()
        layers: list[nn.Module] = [*conv_bn(3, 64, 7, 2), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
        cin = 64
        for stage, depth in enumerate(depths):
            width = 64 * 2**stage
            for i in range(depth):
                layers.append(block(cin, width, 2 if i == 0 and stage > 0 else 1))
                cin = width * expansion
        self.features = nn.Sequential(*layers)
        self.head = nn.Linear(cin, 1000)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        return self.head(
            torch.flatten(nn.functional.adaptive_avg_pool2d(self.features(image), 1), 1)
        )


class DenseLayer(nn.Module):
    """BN-ReLU-1x1 (4 x growth), BN-ReLU-3x3 (growth), its output joined to its input."""

    def __init__(self, cin: int, growth: int) -> None:
        super().__init__()
        wide = 4 * growth
        self.body = nn.Sequential(
            nn.BatchNorm2d(cin), nn.ReLU(), nn.Conv2d(cin, wide, 1, bias=False),
            nn.BatchNorm2d(wide), nn.ReLU(), nn.Conv2d(wide, growth, 3, padding=1, bias=False),
        )  # fmt: skip

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cat([x, self.body(x)], 1)


class DenseNet(nn.Module):
    """DenseNet-121 (blocks 6-12-24-16, growth 32): image [N, 3, 224, 224] -> probabilities
    [N, 1000] (a softmax head, as the model zoo's opset-9 DenseNet-121 has)."""

    def __init__(self, blocks: tuple[int, ...] = (6, 12, 24, 16), growth: int = 32) -> None:
        super().__init__()
        layers: list[nn.Module] = [*conv_bn(3, 64, 7, 2), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
        cin = 64
        for i, depth in enumerate(blocks):
            for _ in range(depth):
                layers.append(DenseLayer(cin, growth))
                cin += growth
            if i < len(blocks) - 1:  # a transition: halve the channels and the image
                layers += [nn.BatchNorm2d(cin), nn.ReLU(), nn.Conv2d(cin, cin // 2, 1, bias=False),
                           nn.AvgPool2d(2)]  # fmt: skip
                cin //= 2
        self.features = nn.Sequential(*layers, nn.BatchNorm2d(cin), nn.ReLU())
        self.head = nn.Linear(cin, 1000)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        pooled = torch.flatten(nn.functional.adaptive_avg_pool2d(self.features(image), 1), 1)
        return torch.softmax(self.head(pooled), 1)


def seeded(model: nn.Module) -> nn.Module:
    """He-initialised convolutions; each block's last batch norm scaled down (as training
    leaves a residual branch small), so 50 layers keep the activations in range."""
    torch.manual_seed(0)
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
        elif isinstance(m, nn.BatchNorm2d):
            nn.init.uniform_(m.weight, 0.2, 0.5)
            nn.init.normal_(m.bias, std=0.05)
            m.running_mean.normal_(std=0.05)
            m.running_var.uniform_(0.8, 1.2)
    return model.eval()


def resnet50() -> nn.Module:
    return seeded(ResNet(Bottleneck, [3, 4, 6, 3], 4))


def resnet18() -> nn.Module:
    return seeded(ResNet(Basic, [2, 2, 2, 2], 1))


def densenet121() -> nn.Module:
    return seeded(DenseNet())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--onnx", type=Path, help="write the ResNet-50 here as ONNX")
    parser.add_argument(
        "--pt2", type=Path, help="write the ResNet-18 here as a torch.export program"
    )
    parser.add_argument(
        "--densenet",
        type=Path,
        help="write a DenseNet-121 here as ONNX opset 9 (as older zoo models are)",
    )
    args = parser.parse_args()
    example = (torch.rand(2, 3, 224, 224) * 2 - 1,)
    batch = torch.export.Dim("batch")
    with torch.no_grad():
        if args.onnx:
            torch.onnx.export(resnet50(), example, str(args.onnx), input_names=["image"],
                              output_names=["logits"], dynamic_shapes={"image": {0: batch}},
                              opset_version=18, dynamo=True, external_data=False)  # fmt: skip
            print(f"wrote {args.onnx}: ResNet-50, image [N, 3, 224, 224] -> logits [N, 1000]")
        if args.pt2:
            program = torch.export.export(resnet18(), example,
                                          dynamic_shapes={"image": {0: batch}})  # fmt: skip
            torch.export.save(program, str(args.pt2))
            print(f"wrote {args.pt2}: ResNet-18, image [N, 3, 224, 224] -> logits [N, 1000]")
        if args.densenet:
            # Opset 9 is the TorchScript exporter's (the dynamo one starts at 18).
            torch.onnx.export(
                densenet121(),
                example,
                str(args.densenet),
                input_names=["image"],
                output_names=["probabilities"],
                opset_version=9,
                dynamo=False,
                dynamic_axes={"image": {0: "batch"}, "probabilities": {0: "batch"}},
            )
            print(
                f"wrote {args.densenet}: DenseNet-121 (opset 9), image [N, 3, 224, 224] -> "
                "probabilities [N, 1000]"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
