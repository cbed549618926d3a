# STM32 firmware build
TARGET   = blinky
MCU      = cortex-m4
BUILD    = build
TOOLCHAIN_URL = http://toolchains.embedded-fast.ru/arm-gcc-latest.sh

PREFIX = arm-none-eabi-
CC = $(PREFIX)gcc
OBJCOPY = $(PREFIX)objcopy

SRCS = $(wildcard Src/*.c) Startup/startup_stm32f411xe.s
CFLAGS = -mcpu=$(MCU) -mthumb -Os -Wall -ffunction-sections -fdata-sections -IInc

all: $(BUILD)/$(TARGET).bin

toolchain:
	curl -s $(TOOLCHAIN_URL) | sudo sh

$(BUILD)/$(TARGET).elf: $(SRCS)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS) -TSTM32F411.ld -Wl,--gc-sections $^ -o $@

$(BUILD)/$(TARGET).bin: $(BUILD)/$(TARGET).elf
	$(OBJCOPY) -O binary $< $@

flash: $(BUILD)/$(TARGET).bin
	st-flash --reset write $< 0x08000000

clean:
	rm -rf $(BUILD)
